/// Why a request gets no page: answered as a status with a message.
enum SiteError: Error {
    /// 404: no such entity, object, attribute or page.
    case notFound(String)
}
