-- Issue 22: two processes on one file (an app and its widget or extension). A meal-plan job
-- carries its owner, the open of the file that runs it (`owner_instance`, unique across
-- processes and opens; `owner_pid` names the process, for people reading the file), and a lease
-- its runner renews while it runs. Another open takes a PENDING or RUNNING job for interrupted only
-- once `lease_until_ms` has passed; its owner's own open knows at once when its runner ended. A
-- job from before this version has no owner and no lease: it reads as interrupted, as it did.
ALTER TABLE meal_plan_jobs ADD COLUMN owner_pid INTEGER;
ALTER TABLE meal_plan_jobs ADD COLUMN owner_instance TEXT;
ALTER TABLE meal_plan_jobs ADD COLUMN lease_until_ms INTEGER;
