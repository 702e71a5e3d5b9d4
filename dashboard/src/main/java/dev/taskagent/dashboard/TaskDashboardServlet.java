package dev.taskagent.dashboard;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serial;

/**
 * The task board as a servlet, for an application's own web server: the second front door of the board, in
 * front of the same handler as its own server. Built by {@link TaskDashboard.Builder#buildServlet()}, which
 * says how to register it and what it checks.
 *
 * <pre>{@code
 * TaskDashboardServlet board = TaskDashboard.builder(store).token(token).buildServlet();
 * // e.g. Spring Boot: new ServletRegistrationBean<>(board, "/taskagent/board/*")
 * }</pre>
 *
 * <p>Needs the Jakarta Servlet API (6.0 or later), which the application's container brings; nothing else of
 * the board does.
 *
 * <p>Thread-safe.
 */
public final class TaskDashboardServlet extends HttpServlet {
    @Serial
    private static final long serialVersionUID = 1L;

    private final transient TaskDashboard.Settings settings;
    private final transient EventStream events;
    private final transient BoardHttp board;

    TaskDashboardServlet(TaskDashboard.Settings settings) {
        this.settings = settings;
        this.events = new EventStream(
                TaskDashboard.feedOf(settings.store()),
                settings.heartbeat(),
                settings.stallTimeout(),
                settings.maxEventClients());
        // The container reads requests under its own time limits.
        this.board = new BoardHttp(settings, events, () -> {});
    }

    /** Subscribes to the store's event feed, when it has one: the page's live updates. */
    @Override
    public void init() throws ServletException {
        events.start();
    }

    /**
     * Answers every request below the servlet's path; a request for the path itself is redirected to it with a
     * trailing slash, where the page names its files relative to itself.
     */
    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo();
        if (path == null || path.isEmpty()) {
            String query = request.getQueryString();
            response.sendRedirect(request.getRequestURI() + "/" + (query == null ? "" : "?" + query));
            return;
        }
        board.handle(new ServletExchange(request, response));
    }

    /** Ends the open event streams and the feed subscription; the store stays open. */
    @Override
    public void destroy() {
        events.close();
        super.destroy();
    }

    /** How many event streams are open (for tests and the starter's checks). */
    int openEventStreams() {
        return events.openStreams();
    }

    @Override
    public String toString() {
        return "TaskDashboardServlet[actions=" + (settings.actionsEnabled() ? "on" : "off") + ", token="
                + (settings.token() == null ? "none" : "set") + "]";
    }

    /** A servlet request and its response, as the board's handler answers them. */
    private static final class ServletExchange implements BoardExchange {
        private final HttpServletRequest request;
        private final HttpServletResponse response;
        private OutputStream body;

        ServletExchange(HttpServletRequest request, HttpServletResponse response) {
            this.request = request;
            this.response = response;
        }

        @Override
        public String method() {
            return request.getMethod();
        }

        @Override
        public String rawPath() {
            // The request URI is undecoded; the context and servlet paths before it are the mount point.
            String uri = request.getRequestURI();
            int root =
                    request.getContextPath().length() + request.getServletPath().length();
            return root < uri.length() ? uri.substring(root) : "/";
        }

        @Override
        public String rawQuery() {
            return request.getQueryString();
        }

        @Override
        public String requestHeader(String name) {
            return request.getHeader(name);
        }

        @Override
        public void setHeader(String name, String value) {
            response.setHeader(name, value);
        }

        @Override
        public InputStream requestBody() throws IOException {
            return request.getInputStream();
        }

        @Override
        public OutputStream sendHeaders(int status, long length) throws IOException {
            response.setStatus(status);
            if (length < 0) {
                response.setContentLength(0);
                response.flushBuffer();
                body = OutputStream.nullOutputStream();
            } else {
                if (length > 0) {
                    response.setContentLengthLong(length);
                }
                body = response.getOutputStream();
                if (length == 0) {
                    response.flushBuffer(); // a stream: its headers go now, before its first event
                }
            }
            return body;
        }

        @Override
        public void close() {
            if (body != null) {
                try {
                    body.close();
                } catch (IOException e) {
                    // The client went away; the container cleans up.
                }
            }
        }

        @Override
        public boolean mounted() {
            return true;
        }
    }
}
