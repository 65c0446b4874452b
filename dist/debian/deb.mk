# A Debian package of beacon (GNU make; included from the top-level Makefile).
#   make deb        beacon_VERSION_ARCH.deb in the repository root, built with dpkg-deb from this machine's
#                   files (no network): make install's layout under /usr (stripped binary, man page,
#                   completions, systemd units), /etc/default/beacon, and the maintainer scripts of
#                   dist/debian; Depends from dpkg-shlibdeps, Recommends libmosquitto1 (--mqtt loads it)
#                   and libcap2-bin (the postinst grants the capabilities with setcap)
#   make test-deb   builds it, runs lintian, installs it into a scratch root and checks what was installed
#                   (tests/install/check_deb.sh)
# DEB_MAINTAINER sets the Maintainer field.

DEB_MAINTAINER ?= The beacon developers <beacon@example.org>
DEB_VERSION := $(shell sed -n 's/.*static let number = "\(.*\)"/\1/p' Sources/BeaconCLI/Version.swift)
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null)
DEB_FILE := beacon_$(DEB_VERSION)_$(DEB_ARCH).deb
DEB_ROOT := .build/deb/root
# Debian's zsh looks for the completions of packages here, not in site-functions (which is for /usr/local).
DEB_ZSH_DIR := /usr/share/zsh/vendor-completions
# dpkg-dev: dpkg-shlibdeps; binutils: make install strips the binary.
DEB_APT_PACKAGES := dpkg-dev binutils

.PHONY: deb test-deb

deb:
	@$(call apt_install,$(DEB_APT_PACKAGES))
	@rm -rf $(DEB_ROOT) $(DEB_FILE)
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(DEB_ROOT) PREFIX=/usr INSTALL_ZSH_DIR=$(DEB_ZSH_DIR)
	dist/debian/build-deb.sh $(DEB_ROOT) $(DEB_FILE) "$(DEB_MAINTAINER)"

test-deb: apt-deps
	tests/install/check_deb.sh

# make test checks the package too (before its own recipe, so swift test still closes the output).
test: test-deb

# lintian: the package check lints what make deb built.
APT_PACKAGES += lintian $(DEB_APT_PACKAGES)
