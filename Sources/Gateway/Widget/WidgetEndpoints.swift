import AuthCore
import HTTP
import WireFormats

/// The JS SDK's popup and redirect sign-in when it is pointed at the gateway with `connectAuthEmulator`:
/// `GET /emulator/auth/handler` is the sign-in window (emulator mode: the fake account picker; otherwise the
/// provider's real sign-in), `GET /emulator/auth/iframe` the relay frame, `GET /emulator/auth/return` where the
/// provider's answer comes back to the window.
enum WidgetEndpoints {
    static func handler(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let request: WidgetRequest
        do {
            request = try WidgetRequest(query: context.request.query)
        } catch .missingApiKeyOrProvider {
            return .json(["authEmulator": ["error": "missing apiKey or providerId query parameters"]], status: 400)
        } catch .invalid(let message) {
            return .response(WidgetPages.problem(message))
        }
        guard services.emulatorVerifier != nil else {
            return .response(try await ProviderWindow.start(request, services, context))
        }
        guard !EmulatorIdpVerifier.reservedProviderIds.contains(request.providerId) else {
            return .response(WidgetPages.problem("\(request.providerId) is not an identity provider."))
        }
        return .response(try await EmulatorAccountPicker.page(request, store: services.store))
    }

    static func iframe(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let emulator = services.emulatorVerifier != nil
        return .response(RelayFrame.page(authorizedDomains: emulator ? nil : services.configuration.authorizedDomains))
    }

    static func returnPage(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        .response(ProviderWindow.returnPage())
    }
}
