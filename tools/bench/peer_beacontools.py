"""beacontools' per-packet parsing, as its scanner runs it: BeaconScanner's Monitor thread reads each
LE Meta event from the HCI socket and calls Monitor.process_packet, which prefilters with an
Aho-Corasick search, parses with construct and applies the device filter. Here the events come from
a capture instead of the socket; everything after that is beacontools' own code. Its socket backend
(PyBluez) is not imported: a replay needs no socket.

The scanner reads one layout per controller (Bluetooth 5 controllers send extended reports); a capture
may mix both, so the layout follows each event's subevent.
"""
import sys
import types

from btsnoop_events import Tally, arguments, events

sys.modules['beacontools.backend'] = types.ModuleType('beacontools.backend')
from beacontools import IBeaconAdvertisement, IBeaconFilter  # noqa: E402
from beacontools.scanner import HCIVersion, Monitor  # noqa: E402


def main():
    args = arguments(__doc__.splitlines()[0])
    tally = Tally()

    def callback(bt_addr, rssi, packet, properties):
        tally.add(properties['uuid'], properties['major'], properties['minor'])

    device_filter = [IBeaconFilter(uuid=args.uuid.lower())] if args.uuid else None
    monitor = Monitor(callback, 0, device_filter, [IBeaconAdvertisement], {})
    for pkt in events(args.capture, args.limit):
        tally.reports += 1
        monitor.hci_version = HCIVersion.BT_CORE_SPEC_5_0 if pkt[3] == 0x0D else HCIVersion.BT_CORE_SPEC_1_0
        monitor.process_packet(pkt)
    tally.print(args.counts)


main()
