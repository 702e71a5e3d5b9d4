/** taskagent dashboard: a live task board in the browser, on the JDK's HTTP server or an application's own. */
module dev.taskagent.dashboard {
    requires transitive dev.taskagent.core;
    requires jdk.httpserver;
    // Only for TaskDashboardServlet: the application's servlet container brings it.
    requires static transitive jakarta.servlet;
    requires com.fasterxml.jackson.databind;

    exports dev.taskagent.dashboard;
}
