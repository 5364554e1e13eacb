export { EntityKryptonOverviewCard } from './EntityKryptonOverviewCard';
