"""What the guided pages teach, as numbers and words: row arithmetic, stages, geometry, scaling, costs."""
