/// The enum fields the gateway reads, as Google's API defines them: the names in the order of their proto
/// numbers, so the name at index `n` is the value numbered `n`. Clients may send either: the JS and iOS SDKs
/// send names, the Android SDK sends numbers (`requestType: 6` is `EMAIL_SIGNIN`), and both must mean the same
/// on every path, v1 and legacy (`RequestBody.enumName`).
enum WireEnums {
    /// `GetOobCodeRequest.requestType` (`accounts:sendOobCode`, legacy `getOobConfirmationCode`).
    static let oobRequestType = ["OOB_REQ_TYPE_UNSPECIFIED", "PASSWORD_RESET", "OLD_EMAIL_AGREE", "NEW_EMAIL_ACCEPT",
                                 "VERIFY_EMAIL", "RECOVER_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL",
                                 "REVERT_SECOND_FACTOR_ADDITION"]
    /// `SetAccountInfoRequest.deleteAttribute` (`accounts:update`).
    static let userAttributeName = ["USER_ATTRIBUTE_NAME_UNSPECIFIED", "EMAIL", "DISPLAY_NAME", "PROVIDER", "PHOTO_URL",
                                    "PASSWORD", "RAW_USER_INFO"]
    /// `QueryUserInfoRequest.sortBy` (`accounts:query`).
    static let sortByField = ["SORT_BY_FIELD_UNSPECIFIED", "USER_ID", "NAME", "CREATED_AT", "LAST_LOGIN_AT", "USER_EMAIL"]
    /// `QueryUserInfoRequest.order`.
    static let order = ["ORDER_UNSPECIFIED", "ASC", "DESC"]
    /// `RevokeTokenRequest.tokenType` (`v2/accounts:revokeToken`).
    static let tokenType = ["TOKEN_TYPE_UNSPECIFIED", "REFRESH_TOKEN", "ACCESS_TOKEN", "CODE"]
    /// `UploadAccountRequest.passwordHashOrder` (`accounts:batchCreate`, legacy `uploadAccount`).
    static let passwordHashOrder = ["UNSPECIFIED_ORDER", "SALT_AND_PASSWORD", "PASSWORD_AND_SALT"]
}
