"""Every limit a control, a table cell or a share link is held to, in one place."""

MAX_TOKENS = 128  # tokens used from a sentence (more are cut, with a message); a real model refuses more, never cuts
MAX_SENTENCE_CHARS = 5_000  # a longer paste is refused before tokenizing
MAX_DIM = 64  # d_k and d_v on the Playground (a real model's head width fits)
MAX_SEED = 2**31 - 1
MIN_TEMPERATURE, MAX_TEMPERATURE = 0.1, 5.0
MAX_UNDO = 50  # moves Undo can step back through (in the app and a notebook widget); older ones are forgotten
VALUE_LIMIT = 1_000.0  # |a cell| at most this: keeps every score far from overflow and every table readable
MAX_D_MODEL = 32  # embedding width on the multi-head and step-by-step lessons
EDITABLE_CELLS = 96  # an X up to this many numbers is an editable table (12 tokens × 8 dimensions)
MAX_LESSON_DK = 512  # the widest d_k the "why we scale" curves are measured at
VECTOR_LIMIT = 10.0  # every coordinate on the geometry page stays in [−10, 10], so arrows fit one plot
# A class question's answers and code guesses, per session (attnviz.classroom.rate): a student clicks a prediction
# and may change it, and mistypes a code now and then; a script looping either is slowed to a trickle.
ANSWERS_BURST, ANSWERS_PER_S = 5, 0.5
CODE_GUESSES_BURST, CODE_GUESSES_PER_S = 5, 0.2
