package dev.speechscale.platform.local;

/**
 * An error the AWS-shaped control plane answers with: the HTTP status, the AWS error code and its
 * message, as the addressed service reports it ({@code __type} in AWS JSON 1.1, {@code
 * <ErrorResponse>} in the Query protocol). Thrown by the operations, answered by {@link
 * AwsControlPlane}.
 */
final class AwsWireError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String code;

  AwsWireError(int status, String code, String message) {
    super(message);
    this.status = status;
    this.code = code;
  }

  /** SageMaker's and Application Auto Scaling's refusal of bad input: 400 ValidationException. */
  static AwsWireError validation(String message) {
    return new AwsWireError(400, "ValidationException", message);
  }

  int status() {
    return status;
  }

  String code() {
    return code;
  }
}
