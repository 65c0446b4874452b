/// Whether the device is inside a monitored region, as CoreLocation's CLRegionState.
/// The raw value is the JSON name.
public enum RegionState: String, Hashable, Sendable, CaseIterable {
    /// Not determined yet: monitoring started and no matching beacon has been heard.
    case unknown
    /// A matching beacon was heard within the last `exitAfter`.
    case inside
    /// The region was exited: no matching beacon for `exitAfter`.
    case outside
}
