"""bumble's HCI packet and advertising-data parsers: HCI_Packet.from_bytes() on each event, then
AdvertisingData.from_bytes() on each report's data and its Manufacturer Specific Data read for
Apple's iBeacon layout, as a bumble host's advertisement handler would.
"""
import uuid as uuidlib

from bumble.core import AdvertisingData
from bumble.hci import HCI_Packet
from btsnoop_events import Tally, arguments, events


def main():
    args = arguments(__doc__.splitlines()[0])
    wanted = args.uuid.upper() if args.uuid else None
    tally = Tally()
    for pkt in events(args.capture, args.limit):
        tally.reports += 1
        event = HCI_Packet.from_bytes(pkt)
        for report in getattr(event, 'reports', []):
            ad = AdvertisingData.from_bytes(report.data)
            for company_and_data in ad.get_all(AdvertisingData.MANUFACTURER_SPECIFIC_DATA):
                company, data = company_and_data
                if company != 0x004C or len(data) < 23 or data[0] != 0x02 or data[1] != 0x15:
                    continue
                beacon_uuid = str(uuidlib.UUID(bytes=bytes(data[2:18]))).upper()
                if wanted is None or beacon_uuid == wanted:
                    tally.add(beacon_uuid, int.from_bytes(data[18:20], 'big'), int.from_bytes(data[20:22], 'big'))
                break
    tally.print(args.counts)


main()
