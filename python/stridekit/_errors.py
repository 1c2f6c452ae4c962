"""StridekitError: a failed C ABI call (raised by the extension)."""

STATUS_NAMES = {
    0: "SK_OK", 1: "SK_ERR_INVALID", 2: "SK_ERR_OUT_OF_RANGE",
    3: "SK_ERR_OVERFLOW", 4: "SK_ERR_NEEDS_COPY", 5: "SK_ERR_UNSUPPORTED",
    6: "SK_ERR_NOMEM",
}


class StridekitError(ValueError):
    """A failed C ABI call: .status is the sk_status value, .status_name its
    name, .function the sk_ function, and the message is sk_last_error()."""

    def __init__(self, function, status, message):
        self.function = function
        self.status = status
        self.status_name = STATUS_NAMES.get(status, str(status))
        super().__init__(f"{message} [{self.status_name} from {function}]")
