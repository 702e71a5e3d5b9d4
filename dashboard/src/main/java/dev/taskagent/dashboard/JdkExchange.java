package dev.taskagent.dashboard;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * An exchange of the JDK's HTTP server, the board's own: the front door of {@link TaskDashboard#start()}.
 *
 * <p>Not thread-safe: used by the thread that answers it.
 */
final class JdkExchange implements BoardExchange {
    private final HttpExchange exchange;

    JdkExchange(HttpExchange exchange) {
        this.exchange = exchange;
    }

    @Override
    public String method() {
        return exchange.getRequestMethod();
    }

    @Override
    public String rawPath() {
        return exchange.getRequestURI().getRawPath();
    }

    @Override
    public String rawQuery() {
        return exchange.getRequestURI().getRawQuery();
    }

    @Override
    public String requestHeader(String name) {
        return exchange.getRequestHeaders().getFirst(name);
    }

    @Override
    public void setHeader(String name, String value) {
        exchange.getResponseHeaders().set(name, value);
    }

    @Override
    public InputStream requestBody() {
        return exchange.getRequestBody();
    }

    @Override
    public OutputStream sendHeaders(int status, long length) throws IOException {
        exchange.sendResponseHeaders(status, length);
        return exchange.getResponseBody();
    }

    @Override
    public void close() {
        exchange.close();
    }

    @Override
    public boolean mounted() {
        return false;
    }
}
