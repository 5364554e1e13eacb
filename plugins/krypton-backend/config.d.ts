export interface Config {
  /** Krypton: versioned Kubernetes Secrets. */
  krypton?: {
    /**
     * Prefix of Krypton's labels and annotations on Secrets.
     * @visibility frontend
     */
    annotationPrefix?: string;
    /**
     * Entity refs (users or groups) that pass every Secret's access rules. Kubernetes RBAC and
     * Backstage permissions still apply, and history snapshots stay hidden.
     */
    admins?: string[];
    /**
     * Snapshots kept per live Secret, 1 to 100 (default 20). The environment variable
     * KRYPTON_HISTORY_LIMIT wins over this key.
     * @visibility frontend
     */
    historyLimit?: number;
    restart?: {
      /**
       * Allow restart-consumers. The environment variable KRYPTON_RESTART_ENABLED wins; only
       * exactly "true" enables it.
       * @visibility frontend
       */
      enabled?: boolean;
    };
    /**
     * Serve only Secrets that Krypton created or adopted (default true). The environment variable
     * KRYPTON_MANAGED_ONLY wins; only exactly "false" turns this off.
     * @visibility frontend
     */
    managedOnly?: boolean;
    /** The operator's storage rewrite after an encryption-key rotation. */
    storageRewrite?: {
      /**
       * How long one storage rewrite may run, in whole minutes from 1 to 1440 (default 60). It
       * stops before its next page of 100 objects after that; a run again resumes at once, since
       * objects already rewritten answer as current.
       */
      timeLimitMinutes?: number;
    };
    /** Secrets that another tool owns (docs/owners.md). */
    ownedSecrets?: {
      /**
       * The owners whose Secrets Krypton may update, restore, adopt and delete, each edit with the
       * user's reason, audited and notified. Every other owner's Secrets are refused with a 409
       * (default: none). Anything else is a start-up error.
       */
      allowEdits?: Array<
        | 'external-secrets'
        | 'sealed-secrets'
        | 'vault-secrets-operator'
        | 'infisical'
        | 'argocd'
        | 'flux'
        | 'helm'
        | 'cert-manager'
        | 'controller'
      >;
      /**
       * The label by which this installation's Argo CD tracks resources, where it tracks by label
       * rather than by its tracking-id annotation (Argo CD's application.instanceLabelKey, usually
       * app.kubernetes.io/instance). Unset: only the annotation says Argo CD. A Secret with this
       * label is then Argo CD's, the label's value naming the Application.
       */
      argoCdInstanceLabel?: string;
    };
    /** Four eyes: changes that a second person must approve (docs/approval.md). */
    approval?: {
      /**
       * Which Secrets' changes need approval. The first rule that covers a Secret decides; a
       * Secret's own `<prefix>/required-approvals` annotation (1 to 5) can raise the number of
       * approvals, never lower it, and alone asks for that many approvals by the Secret's owners.
       * On a covered Secret, an update, restore or delete answers 202 with a change request
       * instead of writing. Anything invalid is a start-up error.
       */
      rules?: Array<{
        /** Cluster names, exactly; every cluster when absent. */
        clusters?: string[];
        /** Namespace names, exactly or with `*` and `?`; every namespace when absent. */
        namespaces?: string[];
        /** The Secrets' labels, in kubectl's selector syntax; every Secret when absent. */
        labelSelector?: string;
        /** How many people must approve, 1 to 5. */
        requiredApprovals: number;
        /** Groups whose members may approve; the Secret's owners when absent. */
        approverGroups?: string[];
        /** Whether the requester's own approval counts (default false). */
        allowSelfApproval?: boolean;
        /** Hours before a waiting request expires, 1 to 168 (default 24). */
        expiresAfterHours?: number;
        /**
         * `hard` (default): only approval applies a change. `soft`: members of bypassGroups may
         * apply it without approval, with a reason; every approver is told.
         */
        enforcement?: 'hard' | 'soft';
        /** Groups whose members may bypass a soft rule; required for soft, refused for hard. */
        bypassGroups?: string[];
      }>;
    };
    diagnostics?: {
      /**
       * Add a Server-Timing header to every answer with the time of each phase of the request:
       * auth, user, permission, kube, audit, app and total (default false). For benchmarks and
       * troubleshooting; it holds durations and call counts only.
       */
      serverTiming?: boolean;
    };
    /**
     * Notifications (through Backstage's notifications backend) to the owners of the catalog
     * entities that link a Secret, when it is updated, restored or deleted, or its consumers are
     * restarted; and (`change-request`) to a change request's approvers and requester when it is
     * made and whenever its state changes. They never carry a value.
     */
    notifications?: {
      /** Send them (default false). */
      enabled?: boolean;
      /**
       * Which operations notify (default all five). Anything else is a start-up error.
       */
      events?: Array<
        'update' | 'restore' | 'delete' | 'restart' | 'change-request'
      >;
    };
    kubernetes?: {
      /**
       * Which Kubernetes identity performs requests:
       * impersonation: every request impersonates the Backstage user;
       * hybrid: live Secret reads and writes impersonate the user, history and workloads use Krypton's identity;
       * serviceAccount: everything uses Krypton's identity, gated by Krypton's ACLs and Backstage permissions.
       * @visibility frontend
       */
      identity?: 'impersonation' | 'hybrid' | 'serviceAccount';
      /**
       * Deadline of each Kubernetes request, from sending to the end of the answer, in
       * milliseconds (default 30000). A request without an answer by then fails as a timeout:
       * an outage (503), whose outcome is unknown for a write.
       */
      requestTimeoutMs?: number;
      impersonation?: {
        /**
         * Template for the impersonated user name. Placeholders: {{kind}}, {{namespace}}, {{name}}, {{ref}}.
         */
        userTemplate?: string;
        /**
         * Template for each impersonated group, applied to every ownership ref of the user that is a group.
         */
        groupTemplate?: string;
        /** Extra groups added to every impersonated request, e.g. system:authenticated. */
        extraGroups?: string[];
      };
      /**
       * Limits of serviceAccount mode, where Krypton's own identity creates and adopts Secrets
       * and Kubernetes RBAC cannot stop a holder of the create permission.
       */
      serviceAccountMode?: {
        /** Namespaces where create and adopt are allowed; none when absent. */
        namespaces?: string[];
        /**
         * Secret types that create and adopt accept (default: Opaque, kubernetes.io/basic-auth,
         * kubernetes.io/ssh-auth, kubernetes.io/tls, kubernetes.io/dockerconfigjson).
         */
        secretTypes?: string[];
      };
    };
    /**
     * Clusters Krypton manages, in the shape of the Backstage Kubernetes plugin's config locator.
     * When absent, Krypton reads kubernetes.clusterLocatorMethods entries of type config.
     */
    clusters?: Array<{
      /** Cluster name; the first cluster is the default. */
      name: string;
      /** API server URL. */
      url: string;
      /** Only serviceAccount is supported. */
      authProvider?: 'serviceAccount';
      /**
       * Token of Krypton's identity (a ServiceAccount allowed to impersonate).
       * @visibility secret
       */
      serviceAccountToken?: string;
      /**
       * PEM CA bundle, base64-encoded.
       * @visibility secret
       */
      caData?: string;
      /** Path of a PEM CA bundle. */
      caFile?: string;
      /** Disable TLS verification; never use outside local development. */
      skipTLSVerify?: boolean;
    }>;
  };
  /**
   * The Backstage Kubernetes plugin's cluster block, which Krypton reads when krypton.clusters is
   * absent. Declared here too so that its token is treated as a secret even when the Kubernetes
   * plugin is not installed.
   */
  kubernetes?: {
    clusterLocatorMethods?: Array<{
      type: string;
      clusters?: Array<{
        name: string;
        url: string;
        authProvider?: string;
        /** @visibility secret */
        serviceAccountToken?: string;
        /** @visibility secret */
        caData?: string;
        caFile?: string;
        skipTLSVerify?: boolean;
      }>;
    }>;
  };
}
