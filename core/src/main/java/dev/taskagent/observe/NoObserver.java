package dev.taskagent.observe;

/** The observer and scope that record nothing. Stateless and thread-safe. */
final class NoObserver implements TaskObserver {
    static final NoObserver INSTANCE = new NoObserver();

    static final Scope<Object> NO_SCOPE = new Scope<>() {
        @Override
        public String toString() {
            return "Scope.none()";
        }
    };

    private NoObserver() {}

    @Override
    public String toString() {
        return "TaskObserver.none()";
    }
}
