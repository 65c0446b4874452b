#ifndef CHCI_H
#define CHCI_H
// Kernel HCI socket constants, ioctl numbers and bind/filter/device-info helpers for Swift.
// Only what Swift cannot import or call directly; the BlueZ headers stay inside chci.c so Swift
// sees nothing but these prefixed names. No logic lives here.

#include <stdint.h>

// Address family, protocol, channels and socket options (linux/net/bluetooth).
extern const int chci_af_bluetooth;
extern const int chci_btproto_hci;
extern const uint16_t chci_hci_channel_raw;
extern const uint16_t chci_hci_channel_user;
extern const uint16_t chci_hci_channel_monitor;
extern const uint16_t chci_hci_channel_control;
extern const int chci_sol_hci;
extern const int chci_hci_filter;
extern const uint16_t chci_hci_dev_none;
extern const int chci_hci_max_dev;

// ioctl request numbers (macros built with _IOR/_IOW, which Swift cannot import).
extern const unsigned long chci_hcigetdevlist;
extern const unsigned long chci_hcigetdevinfo;
extern const unsigned long chci_hcidevup;
extern const unsigned long chci_hcidevdown;

// Bit of `chci_dev_info.flags` set while the controller is up (HCI_UP).
extern const uint32_t chci_hci_flag_up;

/// Binds an HCI socket to controller `dev` on `channel`. Returns bind(2)'s result; errno on failure.
int chci_bind(int fd, uint16_t dev, uint16_t channel);

/// Sets the raw channel filter (HCI_FILTER): the packet types passed, by bit (1 << H4 indicator), and the
/// event codes passed, by bit (codes 0-31 in `event_mask_low`, 32-63 in `event_mask_high`). Returns setsockopt(2)'s result.
int chci_set_filter(int fd, uint32_t type_mask, uint32_t event_mask_low, uint32_t event_mask_high);

/// A controller's identity as reported by HCIGETDEVINFO, in plain fields Swift can read.
typedef struct chci_dev_info {
    uint16_t id;
    char name[8];       // NUL-padded, e.g. "hci0"
    uint8_t bdaddr[6];  // little-endian, as on the wire
    uint32_t flags;     // HCI_UP and friends
    uint8_t type;       // as the kernel packs it: bus in the low nibble, device type in bits 4-5
} chci_dev_info;

/// HCIGETDEVINFO on `fd` (any AF_BLUETOOTH/BTPROTO_HCI socket) for controller `dev`. Returns ioctl(2)'s result.
int chci_get_dev_info(int fd, uint16_t dev, chci_dev_info *out);

/// HCIGETDEVLIST on `fd`: writes up to `capacity` controller ids into `ids`.
/// Returns the number of controllers, or -1 with errno.
int chci_get_dev_list(int fd, uint16_t *ids, int capacity);

/// HCIDEVUP / HCIDEVDOWN on `fd` for controller `dev`. Returns ioctl(2)'s result.
int chci_dev_up(int fd, uint16_t dev);
int chci_dev_down(int fd, uint16_t dev);

#endif
