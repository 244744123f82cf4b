"""The progress app's views, one module per area of the learner's pages."""
