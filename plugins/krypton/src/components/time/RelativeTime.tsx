import { formatExactTime, formatRelativeTime } from './relativeTime';

export interface RelativeTimeProps {
  /** An RFC 3339 timestamp as Kubernetes and Krypton write them. */
  value: string;
  /** For tests: the moment "ago" is measured from. */
  now?: Date;
}

/**
 * A timestamp as people read it ("3 hours ago"), with the exact time on hover and the machine
 * value in `dateTime`. A value that is not a date is shown as written rather than hidden, since
 * it comes from an annotation anyone with write access may have edited.
 */
export const RelativeTime = ({ value, now }: RelativeTimeProps) => {
  const then = new Date(value);
  if (Number.isNaN(then.getTime())) return <span>{value}</span>;
  return (
    <time dateTime={value} title={formatExactTime(then)}>
      {formatRelativeTime(then, now ?? new Date())}
    </time>
  );
};
