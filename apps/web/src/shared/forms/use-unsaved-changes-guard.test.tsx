import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Link, Outlet, useNavigate } from 'react-router';
import { ModalHost } from '@/shared/ui/modal/modal-host';
import { renderApp } from '@/test/render';
import { useUnsavedChangesGuard } from './use-unsaved-changes-guard';
import { dialogClosed } from '@/test/dialogs';

function NameForm() {
  const [name, setName] = useState('');
  const navigate = useNavigate();
  const release = useUnsavedChangesGuard(name !== '');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        release();
        void navigate('/menu');
      }}
    >
      <label>
        Navn
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <Link to="/menu">menu</Link>
      <button type="submit">save</button>
    </form>
  );
}

async function setup() {
  const app = await renderApp({
    initialEntries: ['/form'],
    routes: () => [
      {
        element: (
          <>
            <Outlet />
            <ModalHost />
          </>
        ),
        children: [
          { path: '/form', element: <NameForm /> },
          { path: '/menu', element: <h1>menu screen</h1> },
        ],
      },
    ],
  });
  await screen.findByLabelText('Navn');
  return { ...app, user: userEvent.setup() };
}

describe('unsaved changes (SPEC §2, §5)', () => {
  it('navigates freely while the form is clean', async () => {
    const { user } = await setup();
    await user.click(screen.getByRole('link', { name: 'menu' }));
    expect(await screen.findByRole('heading', { name: 'menu screen' })).toBeTruthy();
  });

  it('asks before leaving a dirty form and stays when told to (SPEC §2)', async () => {
    const { user, router } = await setup();
    await user.type(screen.getByLabelText('Navn'), 'Jóannes');
    await user.click(screen.getByRole('link', { name: 'menu' }));
    const dialog = await screen.findByRole('dialog', { name: 'Broytingarnar eru ikki goymdar' });
    expect(dialog).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Verð verandi' }));
    await dialogClosed();
    expect(router.state.location.pathname).toBe('/form');
    expect(screen.getByLabelText<HTMLInputElement>('Navn').value).toBe('Jóannes');
  });

  it('leaves when the user confirms (SPEC §2)', async () => {
    const { user, router } = await setup();
    await user.type(screen.getByLabelText('Navn'), 'Jóannes');
    await user.click(screen.getByRole('link', { name: 'menu' }));
    await user.click(await screen.findByRole('button', { name: 'Far frá síðuni' }));
    expect(await screen.findByRole('heading', { name: 'menu screen' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/menu');
  });

  it('lets a saved form leave without asking (release)', async () => {
    const { user, router } = await setup();
    await user.type(screen.getByLabelText('Navn'), 'Jóannes');
    await user.click(screen.getByRole('button', { name: 'save' }));
    expect(await screen.findByRole('heading', { name: 'menu screen' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/menu');
  });
});
