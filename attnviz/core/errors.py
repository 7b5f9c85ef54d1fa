"""The one exception the core raises for bad input."""


class AttnvizInputError(ValueError):
    """Input the maths cannot use. The message is written for a student, not a programmer."""
