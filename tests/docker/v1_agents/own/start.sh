#!/bin/bash
# As v1's start scripts: activate the conda environment `agent`, then the agent with the runner's arguments.
set -x
eval "$(conda shell.bash hook)"
conda activate agent
python "${AGENT_DIR}/main.py" "$@"
bash /home/validate_submission.sh "${SUBMISSION_DIR}/submission.csv"
