/** The page's text and every form control's value: wherever a value could show. */
export function pageValues(): string {
  const controls = Array.from(
    document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
      'input, textarea',
    ),
  ).map(control => control.value);
  return [document.body.textContent ?? '', ...controls].join('\n');
}
