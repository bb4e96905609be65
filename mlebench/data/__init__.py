"""Data: fetch raw files, prepare public/private splits, audit them for leaks, self-check the graders."""
