-- Issue 24: a recipe's method (JSON list of steps) and its nutrition per serving (JSON object
-- {kcal, proteinG, carbohydrateG, fatG, fibreG}, NULL when unknown). Ingredients may carry a
-- `preparation` inside `ingredients_json` (no column: search never reads it).

ALTER TABLE recipes ADD COLUMN steps_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE recipes ADD COLUMN nutrition_json TEXT;
