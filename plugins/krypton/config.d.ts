export interface Config {
  /** Krypton: versioned Kubernetes Secrets. */
  krypton?: {
    /**
     * Prefix of Krypton's labels and annotations, including the catalog annotation
     * <prefix>/secrets. Declared here as well as in the backend plugin because the app only
     * receives keys that a package in its own dependency tree marks as frontend-visible.
     * @visibility frontend
     */
    annotationPrefix?: string;
  };
}
