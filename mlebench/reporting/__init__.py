"""Records and the report: typed run and grading records, aggregation into the report."""
