"""mlebench-dvc: declarations, data preparation, planning, running and reporting for the benchmark."""
