import { Link } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
import { ConsumerVersionsResult } from '@krypton/core';
import { VISUALLY_HIDDEN } from '@krypton/plugin-krypton-react';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import {
  ReactNode,
  RefObject,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import useAsync from 'react-use/esm/useAsync';
import {
  KryptonApi,
  SecretLocation,
  kryptonApiRef,
} from '../../api/KryptonApi';
import { useKryptonT } from '../../translation';
import { REQUESTS_IN_FLIGHT } from '../list/loadLinkedSecrets';

/** Reads a Secret's consumers' versions: each Secret once per view, a few at a time. */
export type VersionsLoader = (
  location: SecretLocation,
) => Promise<ConsumerVersionsResult>;

const locationKey = ({ cluster, namespace, name }: SecretLocation) =>
  `${cluster ?? ''}/${namespace}/${name}`;

/**
 * A loader that keeps at most `inFlight` requests open and answers a Secret asked for again (a row
 * drawn again, a page turned back) from the first request: an entity's view of many Secrets must
 * not fan out into a request storm.
 */
export function createVersionsLoader(
  api: Pick<KryptonApi, 'consumerVersions'>,
  inFlight: number = REQUESTS_IN_FLIGHT,
): VersionsLoader {
  const answers = new Map<string, Promise<ConsumerVersionsResult>>();
  const waiting: Array<() => void> = [];
  let open = 0;
  const next = () => {
    while (open < inFlight && waiting.length > 0) {
      open += 1;
      waiting.shift()!();
    }
  };
  return location => {
    const key = locationKey(location);
    let answer = answers.get(key);
    if (!answer) {
      answer = new Promise<ConsumerVersionsResult>((resolve, reject) => {
        waiting.push(() => {
          api
            .consumerVersions(location)
            .then(resolve, reject)
            .finally(() => {
              open -= 1;
              next();
            });
        });
      });
      answers.set(key, answer);
      next();
    }
    return answer;
  };
}

/** One loader for a view's rows. */
export function useVersionsLoader(): VersionsLoader {
  const api = useApi(kryptonApiRef);
  return useMemo(() => createVersionsLoader(api), [api]);
}

/**
 * Whether the element has been on screen: a row's consumers are read only once it is seen. Where
 * the browser cannot tell, it counts as seen.
 */
function useSeen<T extends Element>(): [RefObject<T>, boolean] {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (seen) return undefined;
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      setSeen(true);
      return undefined;
    }
    const observer = new IntersectionObserver(entries => {
      if (entries.some(entry => entry.isIntersecting)) {
        setSeen(true);
        observer.disconnect();
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [seen]);
  return [ref, seen];
}

const useStyles = makeStyles(theme => ({
  badge: { display: 'block', marginTop: theme.spacing(0.5) },
  stale: { color: theme.palette.warning.dark },
  visuallyHidden: VISUALLY_HIDDEN,
}));

/** A refusal to read the pods: the user may not see them, which is no news worth a mark. */
const isForbidden = (error: unknown) =>
  error instanceof ResponseError
    ? error.statusCode === 403
    : (error as { statusCode?: unknown } | undefined)?.statusCode === 403;

export interface ConsumerVersionsBadgeProps {
  location: SecretLocation;
  /** The Secret's name, for the link's accessible name. */
  name: string;
  /** The Secret's Consumers tab; without it, the words are shown without a link. */
  to?: string;
  loader: VersionsLoader;
}

/**
 * A Secret's consumers at a glance, for an entity's views: "All consumers current", "3 pods
 * stale" or "Consumers not all confirmed", linking to the Secret's Consumers tab. It reads the
 * consumers once the row is on screen, through the view's loader. Nothing shows while it loads,
 * for a Secret without consumers, or when the user may not read the pods (403); another failure is
 * a dash whose tooltip says why.
 */
export function ConsumerVersionsBadge(props: ConsumerVersionsBadgeProps) {
  const { location, name, to, loader } = props;
  const t = useKryptonT();
  const classes = useStyles();
  const [ref, seen] = useSeen<HTMLSpanElement>();
  const { cluster, namespace } = location;
  const state = useAsync(
    async () =>
      seen ? loader({ cluster, namespace, name: location.name }) : undefined,
    [seen, loader, cluster, namespace, location.name],
  );

  let content: ReactNode = null;
  if (state.error && !isForbidden(state.error)) {
    const why = t('consumers.badge.failed', { message: state.error.message });
    content = (
      <Tooltip title={why}>
        <span>
          <span aria-hidden="true">—</span>
          <span className={classes.visuallyHidden}>{why}</span>
        </span>
      </Tooltip>
    );
  } else if (state.value && state.value.workloads.length > 0) {
    const { summary } = state.value;
    let label: string;
    if (summary.allCurrent) label = t('consumers.badge.allCurrent');
    else if (summary.stale > 0)
      label = t('consumers.badge.stale', { count: summary.stale });
    else label = t('consumers.badge.unconfirmed');
    const stale = !summary.allCurrent && summary.stale > 0;
    content = to ? (
      <Link
        to={to}
        className={stale ? classes.stale : undefined}
        aria-label={t('consumers.badge.linkLabel', { label, name })}
      >
        {label}
      </Link>
    ) : (
      <span className={stale ? classes.stale : undefined}>{label}</span>
    );
  }
  return (
    <Typography
      ref={ref}
      variant="caption"
      component="span"
      className={classes.badge}
    >
      {content}
    </Typography>
  );
}
