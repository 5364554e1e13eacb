import { describeTime, englishTimeT } from '@krypton/plugin-krypton-react';
import Tooltip from '@mui/material/Tooltip';

/**
 * A timestamp as people read it ("3 hours ago"), with the exact time in the user's zone and in
 * UTC in a tooltip, and the machine value in `dateTime`: the portal's RelativeTime, with
 * Headlamp's MUI and the shared English words. The element takes focus so that the tooltip is
 * there for the keyboard too. `describeChild` keeps the relative text the name and makes the
 * exact time the description (MUI 5 would otherwise make the tooltip the label); the label
 * repeats the relative text because ARIA names a `time` element only by its author. A value
 * that is not a date is shown as written.
 */
export function RelativeTime(props: {
  /** An RFC 3339 timestamp as Kubernetes and Krypton write them. */
  value: string;
  /** For tests: the moment "ago" is measured from. */
  now?: Date;
}) {
  const { value } = props;
  const described = describeTime(value, props.now ?? new Date(), englishTimeT);
  if (!described) return <span>{value}</span>;
  return (
    <Tooltip title={described.exact} describeChild>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <time dateTime={value} tabIndex={0} aria-label={described.relative}>
        {described.relative}
      </time>
    </Tooltip>
  );
}
