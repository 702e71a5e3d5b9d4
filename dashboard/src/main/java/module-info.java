/** taskagent dashboard: a live task board in the browser, on the JDK's HTTP server. */
module dev.taskagent.dashboard {
    requires transitive dev.taskagent.core;
    requires jdk.httpserver;
    requires com.fasterxml.jackson.databind;

    exports dev.taskagent.dashboard;
}
