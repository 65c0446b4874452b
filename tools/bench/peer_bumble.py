"""bumble's HCI packet and advertising-data parsers: HCI_Packet.from_bytes() on each event, then
AdvertisingData.from_bytes() on each report's data and its Manufacturer Specific Data read for
Apple's iBeacon layout, as a bumble host's advertisement handler would.
"""
from bumble.core import AdvertisingData
from bumble.hci import HCI_Packet
from btsnoop_events import Tally, arguments, events, ibeacon


def main():
    args = arguments(__doc__.splitlines()[0])
    tally = Tally()
    for pkt in events(args.capture, args.limit):
        tally.reports += 1
        event = HCI_Packet.from_bytes(pkt)
        for report in getattr(event, 'reports', []):
            ad = AdvertisingData.from_bytes(report.data)
            for company, data in ad.get_all(AdvertisingData.MANUFACTURER_SPECIFIC_DATA):
                identity = ibeacon(company, data)
                if identity:
                    tally.add_if_wanted(identity, args.uuid)
                    break
    tally.print(args.counts)


main()
