#!/bin/sh
# MLE-bench v1's validation helper, at the path v1 gives it (/home/validate_submission.sh): POST one file to
# the in-container validation server (`validate --serve`, on localhost:5000) and print its JSON reply.
# It checks the format only, against the public sample submission; it never gives a score.
#   /home/validate_submission.sh submission.csv
if [ -z "${1:-}" ]; then
  echo "Usage: $0 <submission_file>"
  exit 1
fi
if [ ! -f "$1" ]; then
  echo "File $1 does not exist."
  exit 1
fi
exec curl -sS -X POST -F "file=@$1" http://localhost:5000/validate
