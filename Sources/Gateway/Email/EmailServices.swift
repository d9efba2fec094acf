import AuthCore
import Foundation
import Outbound
import ProviderEmail
import Storage

/// Everything the email endpoints share: the provider's rules, password hashing on the KDF pool, OOB codes,
/// action links, templates, the mail outbox and the privacy switch.
struct EmailServices: Sendable {
    let provider: EmailProvider
    let settings: EmailSettings
    let passwords: PasswordService
    let codes: OobCodes
    let links: ActionLinks
    let templates: EmailTemplates
    let outbox: MailOutbox
    let privacy: EmailPrivacy
    /// Emulator mode only.
    let emulatorLog: EmulatorOobLog?

    /// Replacements for tests: a counting hasher, a fake mailer.
    struct Overrides: Sendable {
        var hasher: (any PasswordHashing)?
        var mailer: (any MailSending)?
        init(hasher: (any PasswordHashing)? = nil, mailer: (any MailSending)? = nil) {
            self.hasher = hasher
            self.mailer = mailer
        }
    }

    static func make(configuration: GatewayConfiguration, store: any UserStore, sealer: Sealer, time: any TimeSource,
                     logger: Logger, overrides: Overrides) -> EmailServices {
        let settings = configuration.email
        let workers = PasswordService.workerCount(configured: settings.kdfWorkers,
                                                  cores: ProcessInfo.processInfo.activeProcessorCount)
        return EmailServices(
            provider: EmailProvider(configuration: settings.provider, time: time,
                                    counters: StoreAbuseCounters(store: store, time: time)),
            settings: settings,
            passwords: PasswordService(hasher: overrides.hasher ?? ScryptPasswordHasher(parameters: settings.scrypt),
                                       pool: WorkerPool(name: "kdf", threadCount: workers),
                                       maxQueued: settings.kdfMaxQueued > 0 ? settings.kdfMaxQueued : 32 * workers),
            codes: OobCodes(store: store, time: time),
            links: ActionLinks(settings: settings, configuration: configuration),
            templates: EmailTemplates(appName: settings.appName ?? configuration.projectId,
                                      overrideDirectory: settings.templatesDirectory
                                        ?? (configuration.dataDirectory as NSString).appendingPathComponent("templates")),
            outbox: MailOutbox(store: store, sealer: sealer, time: time, logger: logger, delivery: settings.smtp,
                               mailer: overrides.mailer),
            privacy: EmailPrivacy(store: store, defaultValue: settings.improvedEmailPrivacy),
            emulatorLog: configuration.emulator ? EmulatorOobLog() : nil)
    }
}
