import { adopt } from './adopt';
import { Command } from './command';
import { completion } from './completion';
import { consumers } from './consumers';
import { deleted } from './deleted';
import { diff } from './diff';
import { edit } from './edit';
import { get } from './get';
import { history } from './history';
import { restart } from './restart';
import { restore } from './restore';

/** The commands, in the order the help lists them. */
export const COMMANDS: readonly Command[] = [
  history,
  diff,
  restore,
  edit,
  consumers,
  restart,
  get,
  adopt,
  deleted,
  completion,
];

export function commandNamed(name: string): Command | undefined {
  return COMMANDS.find(command => command.name === name);
}
