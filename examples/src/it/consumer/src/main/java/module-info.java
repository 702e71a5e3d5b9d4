/**
 * An application that uses taskagent from the module path. It requires the modules it calls; the OpenAI
 * provider and the H2 driver are not required: the module system binds them as services.
 */
module com.example.consumer {
    requires dev.taskagent.core;
    requires dev.taskagent.store.jdbc;
    requires dev.taskagent.taskfile;
}
