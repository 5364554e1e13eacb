import { adopt } from './adopt';
import { Command } from './command';
import { diff } from './diff';
import { edit } from './edit';
import { get } from './get';
import { history } from './history';
import { restore } from './restore';

/** The commands, in the order the help lists them. */
export const COMMANDS: readonly Command[] = [
  history,
  diff,
  restore,
  edit,
  get,
  adopt,
];

export function commandNamed(name: string): Command | undefined {
  return COMMANDS.find(command => command.name === name);
}
