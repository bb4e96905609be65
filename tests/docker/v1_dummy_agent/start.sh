#!/bin/bash
# The v1 dummy agent's checks, in v1's paths and variable names: write the submission, fail to list /private,
# read the data, write to CODE_DIR, LOGS_DIR and AGENT_DIR, read the instructions, validate through
# /home/validate_submission.sh (the server on localhost:5000).
set -x
python "${AGENT_DIR}/main.py"
ls /private || echo "no access to /private (as expected)"
ls /home/data
touch "${CODE_DIR}/code.py" "${LOGS_DIR}/run.log" "${AGENT_DIR}/agent_was_here.txt"
cat /home/instructions.txt
bash /home/validate_submission.sh /home/submission/submission.csv | tee "${LOGS_DIR}/validation.json"
