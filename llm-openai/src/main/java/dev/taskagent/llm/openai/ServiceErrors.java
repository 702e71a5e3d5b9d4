package dev.taskagent.llm.openai;

import com.openai.errors.BadRequestException;
import com.openai.errors.InternalServerException;
import com.openai.errors.NotFoundException;
import com.openai.errors.OpenAIException;
import com.openai.errors.OpenAIInvalidDataException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;
import com.openai.errors.PermissionDeniedException;
import com.openai.errors.RateLimitException;
import com.openai.errors.SseException;
import com.openai.errors.UnauthorizedException;
import com.openai.errors.UnprocessableEntityException;
import dev.taskagent.llm.ChatModelException;
import java.io.InterruptedIOException;
import java.time.Duration;

/**
 * Turns the SDK's exceptions into {@link ChatModelException}s that name the server, the cause and what
 * to do. No message contains the API key: it is cut out of anything the server said, and a refused key
 * (401) is reported without the server's text or the SDK's exception, because OpenAI's 401 text quotes
 * part of the key.
 *
 * <p>Immutable and thread-safe.
 */
final class ServiceErrors {
    private final String baseUrl;
    private final String model;
    private final String apiKey;
    private final boolean keyConfigured;
    private final int maxRetries;
    private final Duration timeout;

    ServiceErrors(
            String baseUrl, String model, String apiKey, boolean keyConfigured, int maxRetries, Duration timeout) {
        this.baseUrl = baseUrl;
        this.model = model;
        this.apiKey = apiKey;
        this.keyConfigured = keyConfigured;
        this.maxRetries = maxRetries;
        this.timeout = timeout;
    }

    ChatModelException translate(OpenAIException e) {
        if (e instanceof UnauthorizedException unauthorized) {
            return refusedKey(unauthorized);
        }
        if (e instanceof OpenAIServiceException service) {
            return serviceError(service);
        }
        if (e instanceof OpenAIIoException) {
            return ioError(e);
        }
        if (e instanceof OpenAIInvalidDataException) {
            return new ChatModelException(
                    server() + " answered with something that is not a valid chat completion: " + detail(e)
                            + ". Check that OPENAI_BASE_URL points at an OpenAI-compatible API root"
                            + " (usually ending in /v1).",
                    e);
        }
        return new ChatModelException(
                "The call to the model service at " + baseUrl + " failed: " + redact(e.getMessage()), e);
    }

    private ChatModelException refusedKey(UnauthorizedException e) {
        String code = e.code().map(value -> ", code " + redact(value)).orElse("");
        if (!keyConfigured) {
            return new ChatModelException(server() + " requires an API key (HTTP 401 Unauthorized" + code
                    + ") but none is configured. Set OPENAI_API_KEY, or give one to"
                    + " OpenAiChatModel.builder().apiKey(...).");
        }
        return new ChatModelException(server() + " refused the API key (HTTP 401 Unauthorized" + code
                + "). Check OPENAI_API_KEY (or the key given to OpenAiChatModel.builder().apiKey(...)):"
                + " it must be a valid, active key for this server. The key is not shown here.");
    }

    private ChatModelException serviceError(OpenAIServiceException e) {
        int status = e.statusCode();
        String said = serverMessage(e);
        String message;
        if (e instanceof RateLimitException) {
            message = server() + " is rate limiting (HTTP 429; gave up after " + attempts() + "): " + said
                    + ". Wait and try again, lower the request rate, raise maxRetries, or check the account's"
                    + " quota.";
        } else if (e instanceof PermissionDeniedException) {
            message = server() + " denied access (HTTP 403 Forbidden): " + said
                    + ". Check that the API key may use model '" + model + "'.";
        } else if (e instanceof NotFoundException) {
            message = server() + " found no model '" + model + "' or no Chat Completions endpoint (HTTP 404): "
                    + said + ". Check OPENAI_MODEL, and that OPENAI_BASE_URL is the API root (usually ending"
                    + " in /v1).";
        } else if (e instanceof BadRequestException || e instanceof UnprocessableEntityException) {
            message = server() + " rejected the request for model '" + model + "' (HTTP " + status + "): " + said + ".";
        } else if (e instanceof InternalServerException) {
            message = server() + " failed (HTTP " + status + "; gave up after " + attempts() + "): " + said
                    + ". Try again later.";
        } else if (e instanceof SseException) {
            message = server() + " reported an error in the middle of the stream: " + said + ".";
        } else {
            message = server() + " answered HTTP " + status + ": " + said + ".";
        }
        return new ChatModelException(message, e);
    }

    private ChatModelException ioError(OpenAIException e) {
        if (causedByTimeout(e)) {
            return new ChatModelException(
                    server() + " did not answer within " + seconds(timeout) + " (" + attempts()
                            + "). Raise the timeout, ask for a shorter answer, or check the server.",
                    e);
        }
        return new ChatModelException(
                "Could not reach the model service at " + baseUrl + " (" + attempts() + "): " + detail(e)
                        + ". Check OPENAI_BASE_URL and that the server is running.",
                e);
    }

    private static boolean causedByTimeout(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedIOException) {
                return true;
            }
        }
        return false;
    }

    // The SDK's message is "<status>: <the server's error message>".
    private String serverMessage(OpenAIServiceException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        String prefix = e.statusCode() + ": ";
        if (message.startsWith(prefix)) {
            message = message.substring(prefix.length());
        }
        message = message.strip();
        // The messages below end their own sentence.
        while (message.endsWith(".")) {
            message = message.substring(0, message.length() - 1);
        }
        return redact(message.isBlank() ? "no error message" : message);
    }

    // The first line of each message in the cause chain: Jackson's messages go on with source excerpts.
    private String detail(Throwable e) {
        StringBuilder detail = new StringBuilder();
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && !message.isBlank()) {
                String firstLine = message.strip().lines().findFirst().orElse("");
                if (detail.indexOf(firstLine) < 0) {
                    detail.append(detail.length() == 0 ? "" : ": ").append(firstLine);
                }
            }
        }
        return redact(detail.length() == 0 ? e.getClass().getSimpleName() : detail.toString());
    }

    private String redact(String text) {
        if (text == null) {
            return "";
        }
        return apiKey.isEmpty() ? text : text.replace(apiKey, "<api key>");
    }

    private String server() {
        return "The model service at " + baseUrl;
    }

    private String attempts() {
        return maxRetries == 0 ? "1 attempt" : (maxRetries + 1) + " attempts";
    }

    private static String seconds(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
