/// One `Queue` call: the URIs to thumbnail, at which flavor, with which scheduler.
struct ThumbnailRequest: Sendable {
    enum Scheduler: String, Sendable, CaseIterable {
        case `default`, foreground, background
    }

    let handle: UInt32
    let uris: [String]
    let flavor: String
    let scheduler: Scheduler
}
