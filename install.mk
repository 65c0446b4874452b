# Install beacon on a Debian box (GNU make; included from the top-level Makefile).
#   make install [PREFIX=/usr/local] [DESTDIR=…] [INSTALL_DEBUG_SYMBOLS=1]   a stripped release binary with the
#                  Swift standard library linked in statically, the man page, bash, zsh and fish completions,
#                  and the systemd units (beacon.service, and the template beacon@.service for a second
#                  controller or command); with INSTALL_DEBUG_SYMBOLS=1 also the symbols and debug information
#                  stripped from it, in bin/.debug/beacon.debug, where gdb finds them through the binary's debuglink
#   make install-caps   grants the installed binary CAP_NET_RAW and CAP_NET_ADMIN (setcap)
#   make uninstall      removes what make install put there
#   make test-install   installs into a scratch directory and checks it (tests/install/check.sh)
# The man page and completions are written by the binary itself (beacon generate-manpage,
# beacon generate-completion SHELL), from the option table that parses its arguments; each is written to a
# .part file renamed into place only once the generator succeeded, so a failed one leaves no file to install.

PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_BIN_DIR := $(PREFIX)/bin
INSTALL_MAN_DIR := $(PREFIX)/share/man/man1
INSTALL_BASH_DIR := $(PREFIX)/share/bash-completion/completions
INSTALL_ZSH_DIR := $(PREFIX)/share/zsh/site-functions
INSTALL_FISH_DIR := $(PREFIX)/share/fish/vendor_completions.d
INSTALL_UNIT_DIR := $(PREFIX)/lib/systemd/system
# gdb looks for a binary's debuglink in the binary's directory and its .debug subdirectory.
INSTALL_DEBUG_DIR := $(INSTALL_BIN_DIR)/.debug
INSTALL_DEBUG_SYMBOLS ?= 0
KEEP_DEBUG_SYMBOLS := $(filter 1,$(INSTALL_DEBUG_SYMBOLS))
RELEASE_BINARY := .build/release/beacon
# How the binary users install is built; make bench measures the same one. Linked by the toolchain's lld
# with packed relative relocations (glibc 2.36, Debian 12): the statically linked runtime's 40,000
# relocations take 8 KiB instead of 940, which the loader no longer reads, and every run starts smaller.
RELEASE_BUILD := swift build -c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
GENERATED_DIR := .build/generated

INSTALLED_FILES := $(INSTALL_BIN_DIR)/beacon $(INSTALL_MAN_DIR)/beacon.1 $(INSTALL_BASH_DIR)/beacon \
	$(INSTALL_ZSH_DIR)/_beacon $(INSTALL_FISH_DIR)/beacon.fish $(INSTALL_UNIT_DIR)/beacon.service \
	$(INSTALL_UNIT_DIR)/beacon@.service $(INSTALL_DEBUG_DIR)/beacon.debug

.PHONY: install install-caps uninstall test-install

# The binary is installed stripped: its symbol table and DWARF are nearly half of the release build, and nothing
# reads them at run time.
install:
	$(RELEASE_BUILD) --product beacon
	@rm -rf $(GENERATED_DIR) && mkdir -p $(GENERATED_DIR)
	$(RELEASE_BINARY) generate-manpage > $(GENERATED_DIR)/beacon.1.part && mv $(GENERATED_DIR)/beacon.1.part $(GENERATED_DIR)/beacon.1
	$(RELEASE_BINARY) generate-completion bash > $(GENERATED_DIR)/beacon.bash.part && mv $(GENERATED_DIR)/beacon.bash.part $(GENERATED_DIR)/beacon.bash
	$(RELEASE_BINARY) generate-completion zsh > $(GENERATED_DIR)/_beacon.part && mv $(GENERATED_DIR)/_beacon.part $(GENERATED_DIR)/_beacon
	$(RELEASE_BINARY) generate-completion fish > $(GENERATED_DIR)/beacon.fish.part && mv $(GENERATED_DIR)/beacon.fish.part $(GENERATED_DIR)/beacon.fish
	for unit in beacon.service beacon@.service; do \
	  sed 's|^ExecStart=/usr/local/bin/beacon |ExecStart=$(INSTALL_BIN_DIR)/beacon |' dist/systemd/$$unit > $(GENERATED_DIR)/$$unit || exit 1; \
	done
	$(if $(KEEP_DEBUG_SYMBOLS),objcopy --only-keep-debug $(RELEASE_BINARY) $(GENERATED_DIR)/beacon.debug)
	objcopy --strip-all $(if $(KEEP_DEBUG_SYMBOLS),--add-gnu-debuglink=$(GENERATED_DIR)/beacon.debug) \
	  $(RELEASE_BINARY) $(GENERATED_DIR)/beacon
	install -D -m 0755 $(GENERATED_DIR)/beacon $(DESTDIR)$(INSTALL_BIN_DIR)/beacon
	$(if $(KEEP_DEBUG_SYMBOLS),install -D -m 0644 $(GENERATED_DIR)/beacon.debug $(DESTDIR)$(INSTALL_DEBUG_DIR)/beacon.debug)
	install -D -m 0644 $(GENERATED_DIR)/beacon.1 $(DESTDIR)$(INSTALL_MAN_DIR)/beacon.1
	install -D -m 0644 $(GENERATED_DIR)/beacon.bash $(DESTDIR)$(INSTALL_BASH_DIR)/beacon
	install -D -m 0644 $(GENERATED_DIR)/_beacon $(DESTDIR)$(INSTALL_ZSH_DIR)/_beacon
	install -D -m 0644 $(GENERATED_DIR)/beacon.fish $(DESTDIR)$(INSTALL_FISH_DIR)/beacon.fish
	install -D -m 0644 $(GENERATED_DIR)/beacon.service $(DESTDIR)$(INSTALL_UNIT_DIR)/beacon.service
	install -D -m 0644 $(GENERATED_DIR)/beacon@.service $(DESTDIR)$(INSTALL_UNIT_DIR)/beacon@.service
	@echo "installed beacon $$($(RELEASE_BINARY) --version) in $(DESTDIR)$(PREFIX); 'make install-caps' lets it open the kernel's HCI sockets without root"

# The raw channel (hciN) needs CAP_NET_RAW; the user channel (hci-user:N) and bringing a controller up need CAP_NET_ADMIN.
install-caps:
	setcap cap_net_raw,cap_net_admin+eip $(DESTDIR)$(INSTALL_BIN_DIR)/beacon
	@echo "granted CAP_NET_RAW and CAP_NET_ADMIN to $(DESTDIR)$(INSTALL_BIN_DIR)/beacon: $$(getcap $(DESTDIR)$(INSTALL_BIN_DIR)/beacon)"

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_FILES))
	rmdir --ignore-fail-on-non-empty $(DESTDIR)$(INSTALL_DEBUG_DIR) 2>/dev/null || true

test-install: apt-deps
	tests/install/check.sh

# make test runs the install checks too (before its own recipe, so swift test still closes the output).
test: test-install

# What the install checks, the completions and the doc examples need: fish, zsh and bash-completion for the
# completions, mandoc and groff to lint the man page, systemd for systemd-analyze verify, jq for the recipes;
# binutils: make install strips the binary (objcopy), and the checks read its sections (readelf).
APT_PACKAGES += fish zsh bash-completion mandoc groff-base man-db libcap2-bin systemd jq binutils
