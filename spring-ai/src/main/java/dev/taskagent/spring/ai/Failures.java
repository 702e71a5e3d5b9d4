package dev.taskagent.spring.ai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskagent.llm.ChatModelException;
import java.lang.reflect.Method;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what a Spring AI model throws into {@link ChatModelException}s that name the model, the cause and what
 * to do.
 *
 * <p>Spring AI 2.0 passes its providers' exceptions on as they are (the OpenAI and Anthropic SDKs', Spring's
 * {@code RestClient}'s...), so the HTTP status is read from the exception by name ({@code statusCode()} of the
 * provider SDKs, {@code getStatusCode().value()} of Spring's web clients) or from a message that starts with
 * it; an error body quoted whole is reduced to its message. No message contains credentials: a refused key
 * (401) is reported without the service's text, which quotes part of the key, and without the exception; anything
 * that looks like a key or a bearer token is cut out of the rest.
 *
 * <p>Immutable and thread-safe.
 */
final class Failures {
    private static final Pattern STATUS_PREFIX = Pattern.compile("^(?:HTTP )?(\\d{3})\\b[:\\s-]*");
    private static final Pattern SECRETS =
            Pattern.compile("(?i)(bearer\\s+\\S+|\\bsk-[A-Za-z0-9_*.-]{6,}|\\b(?:api[-_]?key|x-api-key)[=:]\\s*\\S+)");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String modelDescription;

    Failures(String modelDescription) {
        this.modelDescription = modelDescription;
    }

    ChatModelException translate(RuntimeException failure) {
        if (failure instanceof ChatModelException known) {
            return known;
        }
        if (failure instanceof ResponseMapping.InvalidAnswerException invalid) {
            return new ChatModelException(
                    model() + " answered with something that is not a valid response: " + invalid.getMessage() + ".",
                    failure);
        }
        OptionalInt status = statusOf(failure);
        if (status.isPresent()) {
            return serviceError(status.getAsInt(), failure);
        }
        return new ChatModelException(
                model() + " failed: " + detail(failure)
                        + ". Check the Spring AI ChatModel's configuration (base URL, model, key) and that its service"
                        + " is reachable.",
                failure);
    }

    private ChatModelException serviceError(int status, RuntimeException failure) {
        String said = serviceMessage(failure, status);
        if (status == 401) {
            // Not the service's text, nor the exception: OpenAI's 401 text quotes part of the key.
            return new ChatModelException(model() + ": the provider's service refused the API key (HTTP 401"
                    + " Unauthorized). Check the key the Spring AI ChatModel is configured with (in Spring Boot,"
                    + " spring.ai.<provider>.api-key); it must be a valid, active key for this service. The key is"
                    + " not shown here.");
        }
        String message;
        if (status == 403) {
            message = model() + ": the provider's service denied access (HTTP 403 Forbidden): " + said
                    + ". Check that the API key may use this model.";
        } else if (status == 404) {
            message = model() + ": the provider's service found no such model or endpoint (HTTP 404): " + said
                    + ". Check the model name and the base URL of the Spring AI ChatModel.";
        } else if (status == 429) {
            message = model() + ": the provider's service is rate limiting (HTTP 429): " + said
                    + ". Wait and try again, lower the request rate, or check the account's quota.";
        } else if (status >= 500) {
            message = model() + ": the provider's service failed (HTTP " + status + "): " + said + ". Try again later.";
        } else {
            message = model() + ": the provider's service answered HTTP " + status + ": " + said + ".";
        }
        return new ChatModelException(message, failure);
    }

    private String model() {
        return "The Spring AI chat model " + modelDescription;
    }

    private static OptionalInt statusOf(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            OptionalInt status = statusByMethod(cause);
            if (status.isEmpty() && cause.getMessage() != null) {
                Matcher prefix = STATUS_PREFIX.matcher(cause.getMessage().strip());
                if (prefix.find()) {
                    status = httpStatus(Integer.parseInt(prefix.group(1)));
                }
            }
            if (status.isPresent()) {
                return status;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return OptionalInt.empty();
    }

    // The provider SDKs (openai-java, anthropic-java) have statusCode(); Spring's web clients getStatusCode().
    private static OptionalInt statusByMethod(Throwable failure) {
        try {
            Method statusCode = failure.getClass().getMethod("statusCode");
            if (statusCode.getReturnType() == int.class) {
                return httpStatus((Integer) statusCode.invoke(failure));
            }
            return OptionalInt.empty();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return springStatus(failure);
        }
    }

    private static OptionalInt springStatus(Throwable failure) {
        try {
            Object code = failure.getClass().getMethod("getStatusCode").invoke(failure);
            Object value =
                    code == null ? null : code.getClass().getMethod("value").invoke(code);
            return value instanceof Integer number ? httpStatus(number) : OptionalInt.empty();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    private static OptionalInt httpStatus(int status) {
        return status >= 400 && status <= 599 ? OptionalInt.of(status) : OptionalInt.empty();
    }

    // The first line of the deepest message that carries the status, without the status itself.
    private static String serviceMessage(Throwable failure, int status) {
        String said = "";
        for (Throwable cause = failure; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && !message.isBlank()) {
                said = message;
                if (message.strip().startsWith(String.valueOf(status))) {
                    break;
                }
            }
        }
        String firstLine = said.strip().lines().findFirst().orElse("");
        firstLine =
                errorMessageOf(STATUS_PREFIX.matcher(firstLine).replaceFirst("").strip());
        while (firstLine.endsWith(".")) {
            firstLine = firstLine.substring(0, firstLine.length() - 1);
        }
        return redact(firstLine.isBlank() ? "no error message" : firstLine);
    }

    // Some SDKs (Anthropic's) quote the error body whole: {"type":"error","error":{"type":...,"message":...}}.
    private static String errorMessageOf(String said) {
        if (!said.startsWith("{")) {
            return said;
        }
        try {
            JsonNode body = JSON.readTree(said);
            JsonNode message = body.path("error").path("message");
            if (!message.isTextual()) {
                message = body.path("message");
            }
            return message.isTextual() && !message.asText().isBlank()
                    ? message.asText().strip()
                    : said;
        } catch (JsonProcessingException e) {
            return said;
        }
    }

    // The first line of each message in the cause chain: clients' messages go on with request dumps.
    private static String detail(Throwable failure) {
        StringBuilder detail = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (cause.getCause() != null && cause.getCause().toString().equals(message)) {
                continue; // a wrapper (CompletionException, Reactor's) that only repeats its cause
            }
            String line = message == null || message.isBlank()
                    ? cause.getClass().getSimpleName()
                    : message.strip().lines().findFirst().orElse("");
            if (detail.indexOf(line) < 0) {
                detail.append(detail.length() == 0 ? "" : ": ").append(line);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        String text = detail.toString();
        while (text.endsWith(".")) {
            text = text.substring(0, text.length() - 1);
        }
        return redact(text);
    }

    static String redact(String text) {
        return SECRETS.matcher(text).replaceAll("<redacted>");
    }
}
