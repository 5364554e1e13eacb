import Tooltip from '@material-ui/core/Tooltip';
import { describeTime } from '@krypton/plugin-krypton-react';
import { useKryptonT } from '../../translation';

export interface RelativeTimeProps {
  /** An RFC 3339 timestamp as Kubernetes and Krypton write them. */
  value: string;
  /** For tests: the moment "ago" is measured from. */
  now?: Date;
}

/**
 * A timestamp as people read it ("3 hours ago"), with the exact time in the user's zone and in
 * UTC in a tooltip, and the machine value in `dateTime`. The element takes focus so that the
 * tooltip is there for the keyboard too. MUI's Tooltip describes its child (a native `title`
 * while closed, aria-describedby while open); the label repeats the relative text because ARIA
 * names a `time` element only by its author, not by its content. A value that is not a date is
 * shown as written rather than hidden, since it comes from an annotation anyone with write
 * access may have edited.
 */
export const RelativeTime = ({ value, now }: RelativeTimeProps) => {
  const t = useKryptonT();
  const described = describeTime(value, now ?? new Date(), t);
  if (!described) return <span>{value}</span>;
  return (
    <Tooltip title={described.exact}>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <time dateTime={value} tabIndex={0} aria-label={described.relative}>
        {described.relative}
      </time>
    </Tooltip>
  );
};
