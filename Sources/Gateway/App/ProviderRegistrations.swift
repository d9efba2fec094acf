import ProviderAnonymous
import ProviderApple
import ProviderEmail
import ProviderFacebook
import ProviderGitHub
import ProviderKit
import ProviderOIDC
import ProviderPhone
import ProviderTelegram

/// The registration table: the one place in the gateway that names provider plugins. Adding a provider is one
/// line here, plus its module under `Sources/Providers/`, its target in `Package.swift`, its tests and its docs
/// (see `docs/writing-a-provider.md`). Each factory owns its section of the config file; the order is the order
/// code senders of one channel are tried in.
public enum ProviderRegistrations {
    public static let factories: [any ProviderFactory] = [
        AnonymousProviderFactory(),
        EmailProviderFactory(),
        AppleProviderFactory(),
        FacebookProviderFactory(),
        TelegramProviderFactory(),
        OIDCProviderFactory(),
        WellKnownProviderFactory(.google),
        WellKnownProviderFactory(.microsoft),
        GitHubProviderFactory(),
        PhoneProviderFactory(),
    ]
}
