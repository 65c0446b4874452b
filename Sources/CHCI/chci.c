#include "chci.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>

// The kernel ABI these helpers rely on; a mismatch fails the build instead of corrupting memory.
_Static_assert(sizeof(struct sockaddr_hci) == 6, "sockaddr_hci is family + dev + channel");
_Static_assert(offsetof(struct sockaddr_hci, hci_dev) == 2, "sockaddr_hci.hci_dev offset");
_Static_assert(offsetof(struct sockaddr_hci, hci_channel) == 4, "sockaddr_hci.hci_channel offset");
_Static_assert(HCI_EVENT_PKT == 0x04, "the filter's packet type bits are numbered by H4 indicator");
_Static_assert(sizeof(struct hci_filter) == 16, "hci_filter: type mask, event mask[2], opcode, padding");
_Static_assert(offsetof(struct hci_filter, opcode) == 12, "hci_filter.opcode offset");
_Static_assert(sizeof(bdaddr_t) == 6, "bdaddr_t is 6 bytes");
_Static_assert(offsetof(struct hci_dev_info, bdaddr) == 10, "hci_dev_info.bdaddr offset");
_Static_assert(offsetof(struct hci_dev_info, flags) == 16, "hci_dev_info.flags offset");
_Static_assert(offsetof(struct hci_dev_info, type) == 20, "hci_dev_info.type offset");
_Static_assert(sizeof(struct hci_dev_info) == 92, "hci_dev_info size");
_Static_assert(sizeof(struct hci_dev_req) == 8, "hci_dev_req: dev_id, padding, dev_opt");
_Static_assert(offsetof(struct hci_dev_list_req, dev_req) == 4, "hci_dev_list_req.dev_req offset");
_Static_assert(sizeof(((chci_dev_info *)0)->name) == sizeof(((struct hci_dev_info *)0)->name), "name size");

const int chci_af_bluetooth = AF_BLUETOOTH;
const int chci_btproto_hci = BTPROTO_HCI;
const uint16_t chci_hci_channel_raw = HCI_CHANNEL_RAW;
const uint16_t chci_hci_channel_user = HCI_CHANNEL_USER;
const uint16_t chci_hci_channel_monitor = HCI_CHANNEL_MONITOR;
const uint16_t chci_hci_channel_control = HCI_CHANNEL_CONTROL;
const int chci_sol_hci = SOL_HCI;
const int chci_hci_filter = HCI_FILTER;
const uint16_t chci_hci_dev_none = HCI_DEV_NONE;
const int chci_hci_max_dev = HCI_MAX_DEV;

const unsigned long chci_hcigetdevlist = HCIGETDEVLIST;
const unsigned long chci_hcigetdevinfo = HCIGETDEVINFO;
const unsigned long chci_hcidevup = HCIDEVUP;
const unsigned long chci_hcidevdown = HCIDEVDOWN;

const uint32_t chci_hci_flag_up = 1u << HCI_UP;

int chci_bind(int fd, uint16_t dev, uint16_t channel) {
    struct sockaddr_hci addr;
    memset(&addr, 0, sizeof addr);
    addr.hci_family = AF_BLUETOOTH;
    addr.hci_dev = dev;
    addr.hci_channel = channel;
    return bind(fd, (struct sockaddr *)&addr, sizeof addr);
}

int chci_set_filter(int fd, uint32_t type_mask, uint32_t event_mask_low, uint32_t event_mask_high) {
    struct hci_filter filter;
    memset(&filter, 0, sizeof filter);
    filter.type_mask = type_mask;
    filter.event_mask[0] = event_mask_low;
    filter.event_mask[1] = event_mask_high;
    return setsockopt(fd, SOL_HCI, HCI_FILTER, &filter, sizeof filter);
}

int chci_get_dev_info(int fd, uint16_t dev, chci_dev_info *out) {
    struct hci_dev_info info;
    memset(&info, 0, sizeof info);
    info.dev_id = dev;
    int result = ioctl(fd, HCIGETDEVINFO, &info);
    if (result < 0) return result;
    memset(out, 0, sizeof *out);
    out->id = info.dev_id;
    memcpy(out->name, info.name, sizeof out->name);
    memcpy(out->bdaddr, &info.bdaddr, sizeof out->bdaddr);
    out->flags = info.flags;
    out->type = info.type;
    return result;
}

int chci_get_dev_list(int fd, uint16_t *ids, int capacity) {
    union {
        struct hci_dev_list_req list;
        uint8_t storage[sizeof(struct hci_dev_list_req) + HCI_MAX_DEV * sizeof(struct hci_dev_req)];
    } request;
    memset(&request, 0, sizeof request);
    request.list.dev_num = HCI_MAX_DEV;
    int result = ioctl(fd, HCIGETDEVLIST, &request);
    if (result < 0) return result;
    int count = request.list.dev_num;
    for (int i = 0; i < count && i < capacity; i++) ids[i] = request.list.dev_req[i].dev_id;
    return count;
}

int chci_dev_up(int fd, uint16_t dev) { return ioctl(fd, HCIDEVUP, (unsigned long)dev); }
int chci_dev_down(int fd, uint16_t dev) { return ioctl(fd, HCIDEVDOWN, (unsigned long)dev); }
