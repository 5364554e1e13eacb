import { CliError } from '../cli/errors';
import { EXIT } from '../cli/exitCodes';
import { Command, write } from './command';

/**
 * The shells' completion scripts. Both ask the CLI itself (`__complete`), as cobra's do, so that
 * commands, flags and Secret names come from one place.
 */
const SCRIPTS = {
  bash: `# bash completion for kubectl-krypton: source <(kubectl-krypton completion bash)
_kubectl_krypton() {
  local IFS=$'\\n'
  local candidates
  candidates=$(kubectl-krypton __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null | sed '/^:/d')
  COMPREPLY=( $(compgen -W "$candidates" -- "\${COMP_WORDS[COMP_CWORD]}") )
}
complete -o default -F _kubectl_krypton kubectl-krypton
`,
  zsh: `#compdef kubectl-krypton
# zsh completion for kubectl-krypton: kubectl-krypton completion zsh > "\${fpath[1]}/_kubectl-krypton"
_kubectl_krypton() {
  local -a candidates
  candidates=("\${(@f)$(kubectl-krypton __complete "\${(@)words[2,CURRENT]}" 2>/dev/null | sed '/^:/d')}")
  compadd -a candidates
}
compdef _kubectl_krypton kubectl-krypton
`,
} as const;

export const completion: Command = {
  name: 'completion',
  usage: 'bash|zsh',
  summary:
    'A shell completion script for commands, flags and Secret names (kubectl krypton completes through kubectl_complete-krypton)',
  flags: [],
  args: [1, 1],
  async run(context) {
    const shell = context.args[0];
    if (shell !== 'bash' && shell !== 'zsh')
      throw new CliError('usage', 'completion takes bash or zsh.');
    write(context, SCRIPTS[shell]);
    return EXIT.ok;
  },
};
