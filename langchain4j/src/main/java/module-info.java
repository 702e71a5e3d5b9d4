/**
 * Bridges between taskagent and LangChain4j: any LangChain4j chat model as a taskagent {@code ChatModel},
 * and any taskagent {@code Toolbox} as LangChain4j tools.
 */
module dev.taskagent.langchain4j {
    requires transitive dev.taskagent.core;
    requires com.fasterxml.jackson.databind;
    // LangChain4j's jars have neither module descriptors nor Automatic-Module-Name: these are the automatic
    // module names derived from their file names. Their types are in this module's API, hence transitive.
    requires transitive langchain4j.core;
    requires transitive langchain4j;

    exports dev.taskagent.langchain4j;
}
