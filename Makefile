# paddlec — build, test and set-up in one plain Makefile.
#
#   make              install missing Debian packages, build build/paddlec and
#                     build/libpaddlec_rt.a
#   make CC=clang     the same with clang (objects go to build/obj-clang)
#   make sample       build, then inspect the sample model in samples/mlp
#   make test         build, prepare the Paddle oracle, run every test
#   make oracle       the virtualenv with the pinned paddlepaddle wheel
#   make asan         paddlec built with AddressSanitizer + UBSan
#   make clean

CC      ?= cc
CCNAME  := $(notdir $(firstword $(CC)))
BUILD   := build
OBJ     := $(BUILD)/obj-$(CCNAME)
GEN     := $(BUILD)/gen
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS  ?= -O2 -g
ALLCFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) -I$(GEN) -Iruntime -Icompiler
LDLIBS  := -lprotobuf-c -lm

# Debian packages the build and tests need; `make` installs the missing ones.
DEB_PKGS := protobuf-c-compiler libprotobuf-c-dev libopenblas-dev clang python3-venv
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The Paddle oracle: a pinned CPU wheel in a project-made virtualenv.
VENV     := .venv
PYTHON   := $(VENV)/bin/python
PADDLE_PIN := paddlepaddle==2.6.2 'numpy<2' pytest==8.3.3

RT_SRC   := $(wildcard runtime/*.c)
CC_SRC   := $(wildcard compiler/*.c) $(wildcard compiler/ops/*.c) $(wildcard passes/*.c)
OP_SRC   := $(wildcard compiler/ops/*.c)
RT_OBJ   := $(RT_SRC:%.c=$(OBJ)/%.o)
CC_OBJ   := $(CC_SRC:%.c=$(OBJ)/%.o) $(OBJ)/gen/framework.pb-c.o
LIB_OBJ  := $(filter-out $(OBJ)/compiler/main.o,$(CC_OBJ))

.PHONY: all deps test oracle asan unit sample clean
all: $(BUILD)/paddlec $(BUILD)/libpaddlec_rt.a

deps: $(BUILD)/.deps
$(BUILD)/.deps:
	@mkdir -p $(BUILD)
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@touch $@

# protobuf-c code from our own schema, generated at build time, never committed.
$(GEN)/framework.pb-c.h: $(GEN)/framework.pb-c.c
$(GEN)/framework.pb-c.c: proto/framework.proto | $(BUILD)/.deps
	@mkdir -p $(GEN)
	protoc-c --c_out=$(GEN) -Iproto proto/framework.proto

# The op table: every `const OpDef op_NAME =` and every `OP_FAMILY(NAME)` line
# in compiler/ops/*.c, sorted byte-wise (op_table.c binary-searches it).
$(GEN)/op_list.h: $(OP_SRC)
	@mkdir -p $(GEN)
	@{ grep -ho 'const OpDef op_[a-z0-9_]* =' $(OP_SRC) | sed 's/const OpDef op_\(.*\) =/\1/'; \
	   grep -hoE '^OP_[A-Z0-9_]+\([a-z0-9_]+\)' $(OP_SRC) | sed -E 's/.*\((.*)\)/\1/'; } \
	 | LC_ALL=C sort | awk '{print "OP(" $$1 ")"}' > $@.tmp && mv $@.tmp $@

$(OBJ)/gen/framework.pb-c.o: $(GEN)/framework.pb-c.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(CFLAGS) -w -I$(GEN) -c $< -o $@

$(OBJ)/%.o: %.c $(GEN)/framework.pb-c.h $(GEN)/op_list.h | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libpaddlec_rt.a: $(RT_OBJ)
	$(AR) rcs $@ $^

$(BUILD)/paddlec: $(CC_OBJ) $(BUILD)/libpaddlec_rt.a
	$(CC) $(CFLAGS) -o $@ $(CC_OBJ) $(BUILD)/libpaddlec_rt.a $(LDLIBS)

# Sanitizer build used by the tests (bad inputs, unit tests).
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
asan: $(GEN)/framework.pb-c.h $(GEN)/op_list.h | $(BUILD)/.deps
	$(MAKE) CC=clang CFLAGS="-O1 -g $(SAN)" BUILD=$(BUILD)/asan OBJ=$(BUILD)/asan/obj $(BUILD)/asan/paddlec $(BUILD)/asan/unit_tests \
	  GEN=$(GEN)

UNIT_SRC := $(wildcard tests/unit/*.c)
$(BUILD)/unit_tests: $(UNIT_SRC) $(LIB_OBJ) $(BUILD)/libpaddlec_rt.a
	$(CC) $(ALLCFLAGS) -o $@ $(UNIT_SRC) $(LIB_OBJ) $(BUILD)/libpaddlec_rt.a $(LDLIBS)
unit: $(BUILD)/unit_tests

oracle: $(VENV)/.ok
$(VENV)/.ok: | $(BUILD)/.deps
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check $(PADDLE_PIN)
	$(PYTHON) -c "import paddle, numpy; print('oracle: paddle', paddle.__version__, 'numpy', numpy.__version__)"
	@touch $@

test: all unit asan oracle
	$(PYTHON) -m pytest -q -p no:cacheprovider tests $(PYTEST_ARGS)

# The README's first command: what paddlec sees in the sample model.
sample: $(BUILD)/paddlec
	$(BUILD)/paddlec inspect samples/mlp

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
