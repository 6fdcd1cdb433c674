#!/usr/bin/env python3
"""release-meta.py: the release's metadata, read from where it is set, and the checks of what
scripts/release.sh writes from it (docs/releasing.md). Standard library only.

  version                         the library's version: Cargo.toml's [package] version, the one
                                  place it is set
  coordinates                     "GROUP ARTIFACT VERSION" of the Android package
  pom OUT.pom                     the AAR's POM: group and artifact from
                                  android/coachcore/build.gradle.kts, its api/implementation
                                  dependencies (api -> compile, implementation -> runtime, as
                                  Gradle's own publication maps them), version, description and
                                  licences from Cargo.toml; COACHCORE_PROJECT_URL adds <url>
  check-pom POM                   the POM against the schema written down in check_pom() below
  swift-manifest IN OUT URL SUM   the package repository's Package.swift: IN (the repository's
                                  root manifest) with `release` set to URL and SUM
  check-manifest MANIFEST [--release URL ZIP] [--package-dir DIR]
                                  the manifest's structure (see check_manifest); with --release,
                                  that `release` names URL and the SHA-256 of ZIP; with
                                  --package-dir, that the folder is a package repository's
  check-changelog                 CHANGELOG.md has an entry for the version
  sha256 FILE                     what `swift package compute-checksum FILE` prints
"""

import hashlib
import os
import re
import sys
import tomllib
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRADLE = os.path.join(REPO, "android", "coachcore", "build.gradle.kts")
POM_NS = "http://maven.apache.org/POM/4.0.0"
# JNA's first version whose Android libjnidispatch.so is 16 KB aligned.
JNA_MIN = (5, 17, 0)
# The licences Cargo.toml may name (SPDX), with the text each POM points at.
LICENSE_URLS = {
    "MIT": "https://opensource.org/licenses/MIT",
    "Apache-2.0": "https://www.apache.org/licenses/LICENSE-2.0",
}


class Failure(Exception):
    pass


def cargo_package():
    with open(os.path.join(REPO, "Cargo.toml"), "rb") as f:
        return tomllib.load(f)["package"]


def version():
    v = cargo_package()["version"]
    if not re.fullmatch(r"\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?", v):
        raise Failure(f"Cargo.toml's version {v!r} is not a semantic version")
    return v


def gradle_module():
    """group, artifactId and the api/implementation dependencies of build.gradle.kts's
    `dependencies { }` blocks, with its `val NAME = "..."` strings substituted."""
    text = open(GRADLE).read()
    values = dict(re.findall(r'(?m)^val (\w+) = "([^"]*)"', text))

    def expand(s):
        return re.sub(r"\$\{?(\w+)\}?", lambda m: values[m.group(1)], s)

    group = re.search(r'(?m)^group = "([^"]+)"', text)
    artifact = re.search(r'(?m)^\s*artifactId = "([^"]+)"', text)
    if not group or not artifact:
        raise Failure(f"no group or artifactId in {GRADLE}")
    deps = []
    for conf, notation in re.findall(r'(?m)^\s*(api|implementation)\("([^"]+)"\)', text):
        parts = expand(notation).split("@")
        g, a, v = parts[0].split(":")
        deps.append({
            "groupId": g, "artifactId": a, "version": v,
            "type": parts[1] if len(parts) > 1 else None,
            "scope": "compile" if conf == "api" else "runtime",
        })
    if not deps:
        raise Failure(f"no api/implementation dependency found in {GRADLE}")
    return group.group(1), artifact.group(1), deps


def licenses():
    spdx = cargo_package()["license"]
    names = [n.strip() for n in spdx.split(" OR ")]
    unknown = [n for n in names if n not in LICENSE_URLS]
    if unknown:
        raise Failure(f"no licence URL for {unknown} (Cargo.toml license {spdx!r}): add it to LICENSE_URLS")
    return names


def pom_text():
    group, artifact, deps = gradle_module()
    pkg = cargo_package()
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<project xmlns="{POM_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
        f' xsi:schemaLocation="{POM_NS} https://maven.apache.org/xsd/maven-4.0.0.xsd">',
        "  <modelVersion>4.0.0</modelVersion>",
        f"  <groupId>{escape(group)}</groupId>",
        f"  <artifactId>{escape(artifact)}</artifactId>",
        f"  <version>{escape(version())}</version>",
        "  <packaging>aar</packaging>",
        f"  <name>{escape(artifact)}</name>",
        f"  <description>{escape(pkg['description'])}</description>",
    ]
    url = os.environ.get("COACHCORE_PROJECT_URL")
    if url:
        out.append(f"  <url>{escape(url)}</url>")
    out.append("  <licenses>")
    for name in licenses():
        out += [
            "    <license>",
            f"      <name>{escape(name)}</name>",
            f"      <url>{escape(LICENSE_URLS[name])}</url>",
            "      <distribution>repo</distribution>",
            "    </license>",
        ]
    out.append("  </licenses>")
    out.append("  <dependencies>")
    for d in deps:
        out.append("    <dependency>")
        for key in ("groupId", "artifactId", "version", "type", "scope"):
            if d[key]:
                out.append(f"      <{key}>{escape(d[key])}</{key}>")
        out.append("    </dependency>")
    out.append("  </dependencies>")
    out.append("</project>")
    return "\n".join(out) + "\n"


def version_tuple(v):
    return tuple(int(x) for x in re.findall(r"\d+", v)[:3])


def check_pom(path):
    """The schema the POM is held to (Maven's POM 4.0.0 model, the part a Maven repository and
    Gradle read, plus what this library promises):
    - well-formed XML, root <project> in the POM 4.0.0 namespace, <modelVersion> 4.0.0;
    - children of <project> only from POM 4.0.0's <project> elements, none twice;
    - groupId, artifactId, version equal to build.gradle.kts's and Cargo.toml's; packaging `aar`;
      name and description present and non-empty;
    - <licenses>: one <license> with a <name> and an http(s) <url> per licence of Cargo.toml;
    - <dependencies>: each <dependency> has groupId, artifactId, a version without ranges or
      properties, a scope of compile or runtime, type (if any) aar or jar; no dependency twice;
      exactly build.gradle.kts's list;
    - JNA (net.java.dev.jna:jna) among them, type aar (its Android native part), at 5.17.0 or
      later (16 KB-aligned libjnidispatch.so).
    """
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        raise Failure(f"{path}: not well-formed XML: {e}")
    ns = "{" + POM_NS + "}"
    if root.tag != ns + "project":
        raise Failure(f"{path}: root is {root.tag}, not <project> in {POM_NS}")
    allowed = {
        "modelVersion", "parent", "groupId", "artifactId", "version", "packaging", "name",
        "description", "url", "inceptionYear", "organization", "licenses", "developers",
        "contributors", "mailingLists", "prerequisites", "modules", "scm", "issueManagement",
        "ciManagement", "distributionManagement", "properties", "dependencyManagement",
        "dependencies", "repositories", "pluginRepositories", "build", "reporting", "profiles",
    }
    seen = set()
    for child in root:
        name = child.tag.removeprefix(ns)
        if not child.tag.startswith(ns) or name not in allowed:
            raise Failure(f"{path}: <{child.tag}> is not an element of a POM 4.0.0 <project>")
        if name in seen:
            raise Failure(f"{path}: <{name}> appears twice")
        seen.add(name)

    def text(parent, tag):
        el = parent.find(ns + tag)
        return el.text.strip() if el is not None and el.text and el.text.strip() else None

    group, artifact, deps = gradle_module()
    want = {"modelVersion": "4.0.0", "groupId": group, "artifactId": artifact,
            "version": version(), "packaging": "aar"}
    for tag, value in want.items():
        if text(root, tag) != value:
            raise Failure(f"{path}: <{tag}> is {text(root, tag)!r}, expected {value!r}")
    for tag in ("name", "description"):
        if not text(root, tag):
            raise Failure(f"{path}: <{tag}> is missing or empty")

    found = []
    for lic in root.findall(f"{ns}licenses/{ns}license"):
        name, url = text(lic, "name"), text(lic, "url")
        if not name or not url or not re.match(r"https?://", url):
            raise Failure(f"{path}: a <license> without a name or an http(s) url")
        found.append(name)
    if found != licenses():
        raise Failure(f"{path}: licences {found}, Cargo.toml says {licenses()}")

    got = []
    for dep in root.findall(f"{ns}dependencies/{ns}dependency"):
        d = {k: text(dep, k) for k in ("groupId", "artifactId", "version", "type", "scope")}
        for k in ("groupId", "artifactId", "version", "scope"):
            if not d[k]:
                raise Failure(f"{path}: a dependency without <{k}>: {d}")
        if not re.fullmatch(r"[0-9][0-9A-Za-z.+-]*", d["version"]):
            raise Failure(f"{path}: {d['groupId']}:{d['artifactId']} version {d['version']!r} is a range or a property")
        if d["scope"] not in ("compile", "runtime"):
            raise Failure(f"{path}: {d['groupId']}:{d['artifactId']} scope {d['scope']!r}")
        if d["type"] not in (None, "aar", "jar"):
            raise Failure(f"{path}: {d['groupId']}:{d['artifactId']} type {d['type']!r}")
        got.append(d)
    keys = [(d["groupId"], d["artifactId"]) for d in got]
    if len(set(keys)) != len(keys):
        raise Failure(f"{path}: a dependency appears twice: {keys}")
    jna = [d for d in got if (d["groupId"], d["artifactId"]) == ("net.java.dev.jna", "jna")]
    if not jna:
        raise Failure(f"{path}: no JNA dependency (the Kotlin bindings call the library through it)")
    if jna[0]["type"] != "aar":
        raise Failure(f"{path}: JNA without type aar: an app would get the desktop jar, without its Android libjnidispatch.so")
    if version_tuple(jna[0]["version"]) < JNA_MIN:
        raise Failure(f"{path}: JNA {jna[0]['version']} is older than 5.17.0: its libjnidispatch.so is not 16 KB aligned")
    if got != deps:
        raise Failure(f"{path}: dependencies {got} differ from build.gradle.kts's {deps}")
    return f"{group}:{artifact}:{version()}, {len(got)} dependencies (JNA {jna[0]['version']}@aar)"


RELEASE_LINE = re.compile(r"(?m)^let release: \(url: String, checksum: String\)\? = (.*)$")


def swift_manifest(src, out, url, checksum):
    text = open(src).read()
    lines = RELEASE_LINE.findall(text)
    if lines != ["nil"]:
        raise Failure(f"{src}: expected one `let release: (url: String, checksum: String)? = nil` line, found {lines}")
    if not re.fullmatch(r"https://\S+\.zip", url) or '"' in url or "\\" in url:
        raise Failure(f"the XCFramework URL {url!r} is not an https URL of a .zip")
    if not re.fullmatch(r"[0-9a-f]{64}", checksum):
        raise Failure(f"{checksum!r} is not a SHA-256")
    text = RELEASE_LINE.sub(
        lambda m: f'let release: (url: String, checksum: String)? = (url: "{url}", checksum: "{checksum}")',
        text)
    with open(out, "w") as f:
        f.write(text)


def strip_swift(text):
    """The manifest without comments and string contents (for bracket counting): one pass, so
    that `//` in a string (a URL) and quotes in a comment are read as Swift reads them."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif text[i] == '"':
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\n":
                    raise Failure("a string runs past the end of its line")
                i += 2 if text[i] == "\\" else 1
            out.append('""')
            i += 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def check_manifest(path, release=None, package_dir=None):
    """The manifest's structure, as SwiftPM needs it and as docs/releasing.md describes it:
    tools version 5.9 on the first line; PackageDescription imported; brackets balanced; one
    `release` line (nil in the repository, the URL and checksum given in a release); the binary
    target `coachcoreFFI` by URL and checksum from `release`, else by the local path; the source
    target `coachcore` with the privacy manifest as its resource; the product `CoachCore`; iOS 16
    and macOS 13 as minimums; the Linux branch (system library, tests) behind `#if os(Linux)`."""
    text = open(path).read()
    if not text.startswith("// swift-tools-version:5.9\n"):
        raise Failure(f"{path}: the first line must be `// swift-tools-version:5.9`")
    code = strip_swift(text)
    for a, b in ("()", "[]", "{}"):
        if code.count(a) != code.count(b):
            raise Failure(f"{path}: unbalanced {a}{b}")
    if code.count("#if") != code.count("#endif"):
        raise Failure(f"{path}: unbalanced #if/#endif")
    required = [
        "import PackageDescription",
        '.binaryTarget(name: "coachcoreFFI", url: $0.url, checksum: $0.checksum)',
        '.binaryTarget(name: "coachcoreFFI", path: "swift/coachcoreFFI.xcframework")',
        '.systemLibrary(name: "coachcoreFFI", path: "Sources/coachcoreFFI")',
        'name: "coachcore",',
        'dependencies: ["coachcoreFFI"],',
        'path: root + "Sources/coachcore",',
        'resources: [.copy("PrivacyInfo.xcprivacy")],',
        '.library(name: "CoachCore", targets: ["coachcore"]),',
        "platforms: [.iOS(.v16), .macOS(.v13)],",
        'let root = release == nil ? "swift/" : ""',
        "#if os(Linux)",
    ]
    for snippet in required:
        if snippet not in text:
            raise Failure(f"{path}: `{snippet}` is missing")
    lines = RELEASE_LINE.findall(text)
    if len(lines) != 1:
        raise Failure(f"{path}: expected one `let release` line, found {len(lines)}")
    if release is None:
        if lines[0] != "nil":
            raise Failure(f"{path}: the repository's manifest must keep `release` nil (found {lines[0]})")
        what = "development layout (release nil)"
    else:
        url, zip_path = release
        want = f'(url: "{url}", checksum: "{sha256(zip_path)}")'
        if lines[0] != want:
            raise Failure(f"{path}: release is {lines[0]}, expected {want}")
        what = f"release {url}, checksum of {os.path.basename(zip_path)}"
    if package_dir is not None:
        for f in ("Package.swift", "Sources/coachcore/coachcore.swift",
                  "Sources/coachcore/CoachAsync.swift", "Sources/coachcore/PrivacyInfo.xcprivacy"):
            if not os.path.isfile(os.path.join(package_dir, f)):
                raise Failure(f"{package_dir}: {f} is missing")
        for absent in ("Tests", "swift", "Sources/coachcoreFFI"):
            if os.path.exists(os.path.join(package_dir, absent)):
                raise Failure(f"{package_dir}: {absent} does not belong in a release")
    return what


def check_changelog():
    v = version()
    text = open(os.path.join(REPO, "CHANGELOG.md")).read()
    if not re.search(rf"(?m)^## \[{re.escape(v)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", text):
        raise Failure(f"CHANGELOG.md has no `## [{v}] - YYYY-MM-DD` entry for Cargo.toml's version")
    return f"CHANGELOG.md has the entry of {v}"


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main(argv):
    cmd, args = (argv[0], argv[1:]) if argv else ("", [])
    if cmd == "version" and not args:
        print(version())
    elif cmd == "coordinates" and not args:
        group, artifact, _ = gradle_module()
        print(group, artifact, version())
    elif cmd == "pom" and len(args) == 1:
        with open(args[0], "w") as f:
            f.write(pom_text())
    elif cmd == "check-pom" and len(args) == 1:
        print(f"pom: {check_pom(args[0])}")
    elif cmd == "swift-manifest" and len(args) == 4:
        swift_manifest(*args)
    elif cmd == "check-manifest" and args:
        release = package_dir = None
        rest = args[1:]
        while rest:
            if rest[0] == "--release" and len(rest) >= 3:
                release, rest = (rest[1], rest[2]), rest[3:]
            elif rest[0] == "--package-dir" and len(rest) >= 2:
                package_dir, rest = rest[1], rest[2:]
            else:
                raise Failure(f"check-manifest: unknown arguments {rest}")
        print(f"manifest: {args[0]}: {check_manifest(args[0], release, package_dir)}")
    elif cmd == "check-changelog" and not args:
        print(check_changelog())
    elif cmd == "sha256" and len(args) == 1:
        print(sha256(args[0]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Failure as e:
        print(f"release-meta: {e}", file=sys.stderr)
        sys.exit(1)
