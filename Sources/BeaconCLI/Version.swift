/// The one place the version is set: `beacon --version`, the man page and `make install` read it here.
public enum BeaconVersion {
    public static let number = "0.5.0"
    /// When `number` was set, for the man page's date line.
    public static let date = "2026-11-30"
}
