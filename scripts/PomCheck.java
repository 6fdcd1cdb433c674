// PomCheck: reads a POM the way Maven does, with Maven's own model library (Debian's
// libmaven3-core-java: the reader and validator generated from the same model as the POM 4.0.0
// XSD), and fails on anything Maven would refuse or warn about:
//   1. MavenXpp3Reader in strict mode: an element or attribute the POM model does not have;
//   2. DefaultModelBuilder at Maven 3.0 strict validation: missing coordinates, dependencies
//      without versions, bad scopes or types, duplicates.
// scripts/release.sh (the maven step and CI's check) runs it:
//   java -cp <maven jars> scripts/PomCheck.java POM
import java.io.File;
import java.io.FileReader;
import org.apache.maven.model.Model;
import org.apache.maven.model.building.DefaultModelBuilderFactory;
import org.apache.maven.model.building.DefaultModelBuildingRequest;
import org.apache.maven.model.building.ModelBuildingException;
import org.apache.maven.model.building.ModelBuildingRequest;
import org.apache.maven.model.building.ModelBuildingResult;
import org.apache.maven.model.building.ModelProblem;
import org.apache.maven.model.io.xpp3.MavenXpp3Reader;

public class PomCheck {
    public static void main(String[] args) throws Exception {
        File pom = new File(args[0]);
        Model model;
        try (FileReader reader = new FileReader(pom)) {
            model = new MavenXpp3Reader().read(reader, true);
        } catch (Exception e) {
            System.err.println("PomCheck: " + pom + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        DefaultModelBuildingRequest request = new DefaultModelBuildingRequest();
        request.setPomFile(pom);
        request.setValidationLevel(ModelBuildingRequest.VALIDATION_LEVEL_STRICT);
        request.setProcessPlugins(false);
        request.setTwoPhaseBuilding(false);
        request.setSystemProperties(System.getProperties());
        ModelBuildingResult result;
        try {
            result = new DefaultModelBuilderFactory().newInstance().build(request);
        } catch (ModelBuildingException e) {
            for (ModelProblem p : e.getProblems()) {
                System.err.println("PomCheck: " + pom + ": " + p.getSeverity() + ": " + p.getMessage());
            }
            System.exit(1);
            return;
        }
        if (!result.getProblems().isEmpty()) {
            for (ModelProblem p : result.getProblems()) {
                System.err.println("PomCheck: " + pom + ": " + p.getSeverity() + ": " + p.getMessage());
            }
            System.exit(1);
        }
        System.out.println("maven: " + model.getGroupId() + ":" + model.getArtifactId() + ":"
                + model.getVersion() + " (" + model.getPackaging() + "), "
                + result.getEffectiveModel().getDependencies().size()
                + " dependencies, read strictly and valid at Maven 3.0 strict validation");
    }
}
