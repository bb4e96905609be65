"""Feature engineering for the strong reference solutions of individual tabular competitions.

One module per competition, named after its id with dashes as underscores, read by
:mod:`authoring.leaderboards.engineered`. Each module defines:

- ``features(train, test) -> (train, test)``: the engineered input frames (id column kept, no target).
  Only inputs are used, never answers; like a participant, a recipe may count values over the train and
  test inputs together (e.g. how many passengers share a surname);
- ``ENCODE`` (optional): columns to target-encode, cross-fitted inside every training fold; they may be
  high-cardinality keys that are not model inputs themselves;
- ``TEMPORAL`` (optional, default False): validate on a time-ordered holdout instead of shuffled folds.
"""
