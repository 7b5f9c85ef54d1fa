"""Every limit an input is held to, in one place: a control, a table cell, a message from the browser, a link, a
lesson, a class question, a real model's sentence, a training run, and the work the server's two workers take on.
Streamlit reads its own two, the largest message and the largest upload, from .streamlit/config.toml (a lesson file
fits the upload: tests/core/test_limits.py)."""

MAX_TOKENS = 128  # tokens used from a sentence (more are cut, with a message); a real model refuses more, never cuts
MAX_SENTENCE_CHARS = 5_000  # a longer paste is refused before tokenizing
MAX_DIM = 64  # d_k and d_v on the Playground (a real model's head width fits)
MAX_SEED = 2**31 - 1
MIN_TEMPERATURE, MAX_TEMPERATURE = 0.1, 5.0
MAX_UNDO = 50  # moves Undo can step back through (in the app and a notebook widget); older ones are forgotten
MAX_ANSWERS_KEPT = 50  # predict mode's answers a session keeps a page (the Playground is one): the newest
VALUE_LIMIT = 1_000.0  # |a cell| at most this: keeps every score far from overflow and every table readable
MIN_D_MODEL, MAX_D_MODEL = 2, 32  # embedding width on the multi-head and step-by-step lessons, and Watch it learn's
EDITABLE_CELLS = 96  # an X up to this many numbers is an editable table (12 tokens × 8 dimensions)
MAX_LESSON_DK = 512  # the widest d_k the "why we scale" curves are measured at
MIN_ROW_TOKENS, MAX_ROW_TOKENS = 2, 64  # the tokens in the row "why we scale" shows saturating
VECTOR_LIMIT = 10.0  # every coordinate on the geometry page stays in [−10, 10], so arrows fit one plot
# A class question's answers and code guesses, per session (attnviz.classroom.rate): a student clicks a prediction
# and may change it, and mistypes a code now and then; a script looping either is slowed to a trickle.
ANSWERS_BURST, ANSWERS_PER_S = 5, 0.5
CODE_GUESSES_BURST, CODE_GUESSES_PER_S = 5, 0.2

# What a browser may send (attnviz.ui.edge refuses more before Streamlit decodes it).
MAX_WIDGET_VALUE_BYTES = 512_000
MAX_CELL_CHARS = 32  # what a table's cell takes (its max_chars): any number the app reads, exactly as typed
MAX_ID_CHARS = 64  # an edit's id as a browser makes it (a random prefix and a counter); a cell's name, 4 times it

# Links and lessons.
MAX_LINK_CHARS = 6_000  # a share link's setup: servers and proxies refuse requests over about 8 KB, address and all
MAX_JSON_BYTES = 200_000  # what a share link may unpack to; a 6,000-character link unpacks to far less, bar a zip bomb
MAX_CHOICE_CHARS, MAX_CHOICE = 40, 10_000  # a page's choice in a link (a stage, a layer); the page checks it offers it
MAX_LESSON_LINK = 60_000  # characters: thirty steps of ordinary setups take a few thousand
MAX_LESSON_FILE_BYTES = 4 * MAX_LESSON_LINK  # a lesson's JSON file (its steps written out, so larger than its link)
# A step's words show whole in the lesson bar above the page (a clicker cannot scroll it): at the most, title,
# question and note take about 6 lines of the bar at 1280×720, under a third of the screen.
MAX_LESSON_STEPS, MAX_LESSON_TITLE, MAX_LESSON_NOTE, MAX_LESSON_QUESTION = 30, 80, 240, 160
MAX_TOKEN_CHARS = 100  # an imported head's token text (a model's tokens are a few characters)
MAX_TITLE_CHARS = 200  # an imported head's title

# A class question (attnviz.classroom.tally).
MAX_OPEN_QUESTIONS = 500  # open at once on a server
MAX_CLOSED_QUESTIONS = 2_000  # closed codes remembered, to tell a late answer so
MAX_VOTERS = 300
MAX_QUESTION_CHARS = 300
MAX_SETUP_CHARS = 4_000  # the asked setup's share link (``s=…``); a lesson's setups are about 70
MIN_OPTIONS, MAX_OPTIONS, MAX_OPTION_CHARS = 2, 25, 80  # 25: a key of a 24-token sentence, or "none"
MAX_CODE_CHARS = 8  # the class code box, and a ?join= code cut to it: a 6-character code and a stray space or two

# A real model's sentence, refused before it is tokenized: MAX_TOKENS stops any real sentence first (about 90 words);
# this bounds the tokenizer's work on a paste.
MAX_MODEL_SENTENCE_CHARS = 2_000
# A model a user opens (a hub id or a folder), besides the two shipped: one at a time a process. Its weights, in
# float32, stay within MAX_USER_MODEL_BYTES; with the shipped two (about 900 MB) that fits one Community Cloud app.
MAX_USER_MODEL_PARAMETERS = 200_000_000
MAX_USER_MODEL_BYTES = 1_000_000_000  # model.safetensors on disk; 200M parameters are 800 MB in float32
MAX_MODEL_NAME_CHARS = 500  # a hub id is at most 96 + 1 + 96 characters; a folder's path rarely longer
MAX_SAFETENSORS_HEADER_BYTES = 100_000_000  # a header names each tensor once: a few kB for a small model
MAX_WAITING = 32  # sentences waiting for the model worker, every session's together: one more is refused, not queued

# Watch it learn: the largest run allowed trains in about 10 s on a shared 2-core machine (see bench/train.py).
MIN_SAMPLES, MAX_SAMPLES = 100, 20_000  # the page's box and a link's run; from Python a run may take fewer (from 1)
MAX_EPOCHS = 50
MAX_BATCH_SIZE = 1024
MAX_SAMPLE_PASSES = 120_000  # samples × epochs: 1.5 times the reference text's setting
MAX_TRAIN_STEPS = 4_000  # optimiser steps: a small batch costs a step per handful of samples
MIN_LEARNING_RATE, MAX_LEARNING_RATE = 1e-5, 1.0
MAX_LOG_POINTS = 200  # times a run records its curves: each costs a forward pass over the probe samples
# Watch it learn's induction experiment: the largest run allowed trains in about a minute on one core (bench/train.py).
MAX_INDUCTION_LAYERS, MAX_INDUCTION_HEADS, MAX_INDUCTION_D_MODEL = 2, 4, 32
MIN_INDUCTION_VOCAB, MAX_INDUCTION_VOCAB = 4, 128
MIN_INDUCTION_SEQ_LEN, MAX_INDUCTION_SEQ_LEN = 2, 12  # T: a sequence is r then r again, 2T tokens
MAX_INDUCTION_STEPS, MAX_INDUCTION_BATCH = 4_000, 32
MAX_UNFINISHED_RUNS = 6  # queued or training, every session's together: the last waits about 6 runs' time
